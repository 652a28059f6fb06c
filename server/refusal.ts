// The front door's own answers (405, 400, 408): `{"detail"}` under /api, plain text for pages, with
// the app's one list of security headers (the build's staticFileHeaders).
import type { IncomingMessage, ServerResponse } from "node:http";

export type HeaderList = Readonly<Record<string, string>>;

/** The request's path without its query string (which may hold tokens: never logged either). */
export function pathOf(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/** Sets the security headers and the answer's type and length; returns the body to send. */
export function prepareRefusal(
  res: ServerResponse,
  headers: HeaderList,
  pathname: string,
  detail: string,
  text: string,
): string {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  const isApi = pathname.startsWith("/api/") || pathname === "/api";
  const body = isApi ? JSON.stringify({ detail }) : text;
  res.setHeader("Content-Type", isApi ? "application/json; charset=utf-8" : "text/plain; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  return body;
}
