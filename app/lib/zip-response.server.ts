import { createReadableStreamFromReadable } from "@react-router/node";
import type { ZipStream } from "./zip-stream.server";

/** The exports' HTTP answers for a zip being written (zip-stream.server.ts writes it). */

/** Content-Disposition for a download: an ASCII fallback name and the exact one (RFC 6266, RFC 5987). */
export function attachmentDisposition(filename: string): string {
  const ascii =
    filename
      .normalize("NFKD")
      .replace(/[^\x20-\x7e]/g, "")
      .replace(/["\\%;]/g, "_")
      .trim() || "export.zip";
  const exact = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** The HTTP answer for a zip being written: no length (it is not known yet), never cached. */
export function zipResponse(filename: string, zip: ZipStream): Response {
  return new Response(createReadableStreamFromReadable(zip.output), {
    status: 200,
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": attachmentDisposition(filename),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
