// The one seam where the front door stands between the app and a response's bytes. Two concerns need
// it: the request deadline (server/request-limits.ts drops the app's writes once it answered 408
// itself) and page compression (server/compression.ts). Each installs a layer: it is given the
// methods below it and returns the ones the app calls instead, so every layer stays a plain typed
// object and none captures another's replacement by hand. The last layer installed is the first one
// the app reaches (compression above the deadline's guard).
import type { OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from "node:http";

export type Chunk = string | Uint8Array;
export type WriteCallback = (error?: Error | null) => void;
export type HeadersArgument = OutgoingHttpHeaders | OutgoingHttpHeader[];

/** writeHead(status[, statusMessage][, headers]) as Node takes it. */
export type WriteHeadArgs = [
  statusCode: number,
  statusMessageOrHeaders?: string | HeadersArgument,
  headers?: HeadersArgument,
];
/** write(chunk[, encoding][, callback]) as Node takes it. */
export type WriteArgs = [chunk: Chunk, encodingOrCallback?: BufferEncoding | WriteCallback, callback?: WriteCallback];
/** end([chunk][, encoding][, callback]) as Node takes it. */
export type EndArgs = [
  chunk?: Chunk | WriteCallback,
  encodingOrCallback?: BufferEncoding | WriteCallback,
  callback?: WriteCallback,
];

/** A response's three body methods, bound to it. */
export interface BodyMethods {
  writeHead(...args: WriteHeadArgs): ServerResponse;
  write(...args: WriteArgs): boolean;
  end(...args: EndArgs): ServerResponse;
}

/** What a layer may replace; a method it leaves out passes straight to the layer below. */
export type Layer = (below: BodyMethods) => Partial<BodyMethods>;

type Loose = (...args: unknown[]) => unknown;

/** The methods the app reaches now (the response's own, or the last layer's), bound to it. */
function current(res: ServerResponse): BodyMethods {
  const writeHead = res.writeHead as unknown as Loose;
  const write = res.write as unknown as Loose;
  const end = res.end as unknown as Loose;
  return {
    writeHead: (...args) => writeHead.apply(res, args) as ServerResponse,
    write: (...args) => write.apply(res, args) as boolean,
    end: (...args) => end.apply(res, args) as ServerResponse,
  };
}

/** Puts `layer` between the app and what is below it on this response. */
export function interpose(res: ServerResponse, layer: Layer): void {
  const below = current(res);
  const above = { ...below, ...layer(below) };
  // Node's overloads, narrowed here once: the layers see the one shape above.
  res.writeHead = above.writeHead as ServerResponse["writeHead"];
  res.write = above.write as ServerResponse["write"];
  res.end = above.end as ServerResponse["end"];
}

/** The response's own methods, past every layer (the front door's own answer, a 408, goes out by them). */
export function ownMethods(res: ServerResponse): BodyMethods {
  const proto = Object.getPrototypeOf(res) as ServerResponse;
  const writeHead = proto.writeHead as unknown as Loose;
  const write = proto.write as unknown as Loose;
  const end = proto.end as unknown as Loose;
  return {
    writeHead: (...args) => writeHead.apply(res, args) as ServerResponse,
    write: (...args) => write.apply(res, args) as boolean,
    end: (...args) => end.apply(res, args) as ServerResponse,
  };
}

/** The callback among write's or end's arguments, if any. */
export function callbackOf(args: readonly unknown[]): WriteCallback | undefined {
  return args.find((arg): arg is WriteCallback => typeof arg === "function");
}

/** A chunk as bytes (a string in the encoding it was written with, UTF-8 by default). */
export function bytesOf(chunk: Chunk, encoding?: BufferEncoding | WriteCallback): Buffer {
  if (typeof chunk === "string") return Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8");
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
