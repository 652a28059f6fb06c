import type { ZipStream } from "./zip-types.server";

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

/** Chunks read ahead of the HTTP layer's asks (the zip keeps writing while one goes out). */
const READ_AHEAD = 4;
/**
 * Chunks the HTTP layer has been given and not yet given back to the zip. The front door asks for the
 * next chunk only after `res.write` of the one before returned true or its 'drain' came; true means
 * the socket holds less than its high-water mark (16–64 KiB), so at most one of these 64 KiB chunks
 * can still be waiting in it. The oldest of SENT_KEPT chunks is long written (docs/decisions/0078).
 */
export const SENT_KEPT = 8;

/**
 * The zip's output as the response body, pulled by the HTTP layer one chunk per ask (no queue of its
 * own). Once a chunk is SENT_KEPT asks old it goes back to the zip to be filled again, so a download
 * streams through a few reused 64 KiB buffers instead of a new one per 64 KiB, which would wait for a
 * GC (tens of MiB of them on Node 24).
 */
export function zipBody(zip: ZipStream): ReadableStream<Uint8Array> {
  const { output } = zip;
  const ready: Uint8Array[] = [];
  const sent: Uint8Array[] = [];
  let ended = false;
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const wakeUp = () => (wake?.(), (wake = null));
  output.on("data", (chunk: Uint8Array) => {
    ready.push(chunk);
    if (ready.length >= READ_AHEAD) output.pause();
    wakeUp();
  });
  output.once("end", () => ((ended = true), wakeUp()));
  output.once("error", (error) => ((failure = error), wakeUp()));
  output.once("close", () => ((ended = true), wakeUp()));
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (ready.length === 0 && !ended && failure === null) await new Promise<void>((resolve) => (wake = resolve));
        if (failure !== null) return controller.error(failure);
        const chunk = ready.shift();
        if (!chunk) return controller.close();
        if (ready.length < READ_AHEAD) output.resume();
        sent.push(chunk);
        if (sent.length > SENT_KEPT) zip.release(sent.shift()!);
        controller.enqueue(chunk);
      },
      cancel(reason) {
        output.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The HTTP answer for a zip being written: no length (it is not known yet), never cached. */
export function zipResponse(filename: string, zip: ZipStream): Response {
  return new Response(zipBody(zip), {
    status: 200,
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": attachmentDisposition(filename),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
