// The client files (the build's client folder) by sirv: the build's brotli or gzip copy when the
// browser accepts it, ETag and ranges, hashed assets cached for a year and the rest for an hour,
// with the app's security headers.
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { mimes } from "mrmime";
import sirv from "sirv";
import { acceptedEncodings } from "./compression";
import type { HeaderList } from "./refusal";

/** Client files named by their content hash (Vite's assets/) never change: a year, immutable. */
const HASHED_ASSET = /^\/assets\//;

export type ClientFiles = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** Serves `<buildDir>/client`; a request for no such file goes on to `next`. */
export function clientFiles(buildDir: string, headers: HeaderList): ClientFiles {
  // sirv names types by mrmime's table, which has no entry for the favicon's .ico (mrmime documents
  // the table as open to additions).
  mimes.ico ??= "image/x-icon";
  const serve = sirv(path.join(buildDir, "client"), {
    brotli: true,
    gzip: true,
    etag: true,
    extensions: [],
    setHeaders(res, pathname) {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.setHeader(
        "Cache-Control",
        HASHED_ASSET.test(pathname) ? "public, max-age=31536000, immutable" : "public, max-age=3600",
      );
    },
  });
  return (req, res, next) => serve(withAcceptedEncodings(req), res, next);
}

/**
 * sirv picks a precompressed copy by the names in Accept-Encoding alone; a client that refuses one
 * (`br;q=0`) must not get it. The header is rewritten to the encodings really accepted, best first
 * (the app reads its headers from the raw ones, which stay as they came).
 */
function withAcceptedEncodings(req: IncomingMessage): IncomingMessage {
  const header = req.headers["accept-encoding"];
  if (header && /;\s*q=/i.test(header)) req.headers["accept-encoding"] = acceptedEncodings(req).join(", ");
  return req;
}
