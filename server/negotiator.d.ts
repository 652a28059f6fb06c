// negotiator 0.6 ships no types (and @types/negotiator is not installed): the one method used here.
declare module "negotiator" {
  import type { IncomingMessage } from "node:http";
  export default class Negotiator {
    constructor(request: Pick<IncomingMessage, "headers">);
    /** The encodings among `available` the request accepts, best first; `preferred` breaks ties. */
    encodings(available?: string[], preferred?: string[]): string[];
  }
}
