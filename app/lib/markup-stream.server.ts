/**
 * Where React's streaming renderer writes a page (entry.server.tsx): it collects the renderer's
 * pieces of markup in a string and hands each burst to a web ReadableStream as one UTF-8 chunk when
 * the renderer flushes, so a 50 KB page costs one encode instead of one per attribute and text.
 *
 * The renderer is React's "bun" build of renderToPipeableStream, which writes strings to any
 * object with write/flush/end/on (nothing Bun-specific on the paths a page takes; decision 0027).
 * The Node build would keep each render in an AsyncLocalStorage, which on Node 20 turns on a
 * promise hook for the whole process after the first page: every later answer, API included,
 * cost about 20% more. The edge build encodes each piece into its own array: renders cost half again.
 */
export interface MarkupDestination {
  write(chunk: string | Uint8Array): boolean;
  flush(): void;
  end(): void;
  error(reason: unknown): void;
  on(event: string, listener: (...args: unknown[]) => void): MarkupDestination;
}

const utf8 = new TextEncoder();

/**
 * A destination for renderToPipeableStream and the stream it fills. `onCancel` runs when the reader
 * gives up (the client went away): the render should be aborted.
 */
export function createMarkupStream(onCancel: (reason: unknown) => void): { destination: MarkupDestination; stream: ReadableStream<Uint8Array> } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  // One string, appended to: V8 joins the pieces lazily (a rope) and flattens them once, when encoded.
  let pending = "";
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
    },
    cancel(reason) {
      open = false;
      pending = "";
      onCancel(reason);
    },
  });
  const flush = () => {
    if (!open || pending.length === 0) return;
    const text = pending;
    pending = "";
    controller.enqueue(utf8.encode(text));
  };
  const destination: MarkupDestination = {
    write(chunk) {
      if (!open) return false;
      if (typeof chunk === "string") {
        pending += chunk;
      } else if (chunk.byteLength > 0) {
        flush();
        controller.enqueue(chunk.slice());
      }
      // No back-pressure: a page is rendered in a few bursts, and the front door reads as it comes.
      return true;
    },
    flush,
    end() {
      flush();
      if (open) controller.close();
      open = false;
    },
    error(reason) {
      if (open) controller.error(reason);
      open = false;
      pending = "";
    },
    // The renderer listens for drain, error and close, which a destination that never pushes back,
    // fails or closes by itself never emits.
    on() {
      return destination;
    },
  };
  return { destination, stream };
}
