import { randomUUID } from "node:crypto";
import { isTrustedPeer } from "../http/client-address.server";

/**
 * Every request's id, sent back as X-Request-Id and written in its log line, its errors and its trace,
 * so that a person's "Reference" on an error page finds them. A proxy's id is kept when TRUST_PROXY
 * trusts the peer and the id is short and plain; anyone else's is replaced, so no client can put text
 * of its choosing into the logs or pass another request's id as its own.
 */
const REQUEST_ID = /^[\w.:@-]{1,128}$/;

/** The id to use: `given` when it comes from a trusted proxy and has the shape of an id, else a new UUID. */
export function requestIdFrom(given: string | undefined, trusted: boolean): string {
  return given !== undefined && trusted && REQUEST_ID.test(given) ? given : randomUUID();
}

/** As requestIdFrom, with the trust TRUST_PROXY gives the connection's peer (only asked when there is an id to keep). */
export function requestIdFor(given: string | string[] | undefined, peerAddress: string | undefined): string {
  const single = Array.isArray(given) ? undefined : given;
  return requestIdFrom(single, single !== undefined && isTrustedPeer(peerAddress));
}
