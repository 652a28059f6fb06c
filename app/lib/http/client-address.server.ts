import proxyAddr from "proxy-addr";
import { createContext, RouterContextProvider } from "react-router";
import { env } from "~/lib/settings/env.server";
import { requestObservationContext, type RequestObservation } from "~/lib/observe/request-observation.server";

/**
 * The client's address, as the server saw it (behind a trusted proxy: the first untrusted hop of
 * X-Forwarded-For). It reaches the app in React Router's context, set by the server's
 * `getLoadContext` (createLoadContext below); no header a client could write carries it.
 * Under `react-router dev` there is no load context: the address is then "unknown".
 */
export const clientAddressContext = createContext<string>("unknown");

/** The request's client address (login and registration budgets are counted by it). */
export function clientAddress(context: Readonly<RouterContextProvider>): string {
  return context.get(clientAddressContext);
}

/** What @react-router/node's createRequestListener says of the connection. */
export interface ConnectionInfo {
  address?: string;
}

type Trust = (address: string, hop: number) => boolean;

/**
 * Trust in proxy headers as TRUST_PROXY gives it (Express's convention): true (any hop), a hop
 * count, or addresses and subnets (comma-separated, with proxy-addr's names loopback, linklocal,
 * uniquelocal). Off: only the connection's address counts.
 */
function compileTrust(trustProxy: unknown): Trust {
  if (trustProxy === true) return () => true;
  if (typeof trustProxy === "number") return (_address, hop) => hop < trustProxy;
  if (typeof trustProxy === "string") return proxyAddr.compile(trustProxy.split(",").map((value) => value.trim()));
  return () => false;
}

let trust: Trust | null = null;

/**
 * Whether the connection's other end is a proxy TRUST_PROXY trusts (the last hop): only its
 * X-Forwarded-* headers say anything about the request; anyone else could write them.
 */
export function isTrustedPeer(peerAddress: string | undefined): boolean {
  if (!env.trustProxyEnabled) return false;
  trust ??= compileTrust(env.trustProxy);
  return trust(peerAddress || "unknown", 0);
}

/** The scheme the client used: https when a trusted proxy's X-Forwarded-Proto says so, else this server's http. */
export function requestScheme(forwardedProto: string | undefined, peerAddress: string | undefined): "http" | "https" {
  if (!forwardedProto || !env.trustProxyEnabled) return "http";
  const first = forwardedProto.split(",")[0].trim().toLowerCase();
  return first === "https" && isTrustedPeer(peerAddress) ? "https" : "http";
}

/** The client's address from the connection and, behind a trusted proxy, X-Forwarded-For. */
export function resolveClientAddress(request: Request, connection: ConnectionInfo): string {
  const socketAddress = connection.address || "unknown";
  if (!env.trustProxyEnabled) return socketAddress;
  const forwardedFor = request.headers.get("X-Forwarded-For");
  if (!forwardedFor) return socketAddress;
  trust ??= compileTrust(env.trustProxy);
  // proxy-addr reads an IncomingMessage's socket address and X-Forwarded-For; this is all it reads of one.
  const incoming = {
    headers: { "x-forwarded-for": forwardedFor },
    connection: { remoteAddress: socketAddress },
    socket: { remoteAddress: socketAddress },
  };
  return proxyAddr(incoming as unknown as Parameters<typeof proxyAddr>[0], trust) || socketAddress;
}

/**
 * The server's `getLoadContext` (server/, through the build): a fresh context per request
 * with the client's address in it, and the front door's observation of the request (its id, the
 * route once matched: app/lib/observe/). X-Forwarded-Proto and X-Forwarded-Host from a peer TRUST_PROXY does
 * not trust (TRUST_PROXY=loopback, a request straight from elsewhere) are dropped from the request
 * first, so that no reader (the cross-origin check, publicOrigin) takes them for a proxy's word.
 */
export function createLoadContext(
  request: Request,
  connection: ConnectionInfo,
  observation?: RequestObservation,
): RouterContextProvider {
  // Without TRUST_PROXY no reader takes these headers at all: they are looked at only with it.
  const forwarded =
    env.trustProxyEnabled && (request.headers.has("X-Forwarded-Proto") || request.headers.has("X-Forwarded-Host"));
  if (forwarded && !isTrustedPeer(connection.address)) {
    request.headers.delete("X-Forwarded-Proto");
    request.headers.delete("X-Forwarded-Host");
  }
  const context = new RouterContextProvider();
  context.set(clientAddressContext, resolveClientAddress(request, connection));
  if (observation) context.set(requestObservationContext, observation);
  return context;
}
