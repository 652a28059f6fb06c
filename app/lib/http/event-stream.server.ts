import { DomainError } from "~/lib/domain-error";

/**
 * A Server-Sent Events answer (text/event-stream): each value the source yields goes out as one
 * `data: <JSON>` event the moment it is made, then `data: [DONE]`. A DomainError thrown midway goes
 * out as `data: {"error": detail}` and the stream ends without [DONE]; the client's leaving stops
 * the source (its generator is returned, so a provider call behind it is cancelled).
 */
const encoder = new TextEncoder();
const event = (data: string) => encoder.encode(`data: ${data}\n\n`);

export function eventStreamResponse(source: AsyncGenerator<unknown>, headers: Record<string, string> = {}): Response {
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await source.next();
        if (next.done) {
          controller.enqueue(event("[DONE]"));
          controller.close();
          return;
        }
        controller.enqueue(event(JSON.stringify(next.value)));
      } catch (error) {
        if (!(error instanceof DomainError)) console.error("[event-stream] the source failed", error);
        const detail = error instanceof DomainError ? error.detail : "Internal error";
        controller.enqueue(event(JSON.stringify({ error: detail })));
        controller.close();
      }
    },
    async cancel() {
      await source.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      // Proxies (nginx) pass each event on instead of buffering the answer.
      "X-Accel-Buffering": "no",
      ...headers,
    },
  });
}
