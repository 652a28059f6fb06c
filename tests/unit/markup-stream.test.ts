import { AsyncLocalStorage } from "node:async_hooks";
import { createElement, Suspense, use } from "react";
import { renderToPipeableStream } from "react-dom/server.bun";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMarkupStream } from "~/lib/markup-stream.server";

// The page renderer of entry.server.tsx (decision 0027): React's Bun build of renderToPipeableStream
// writing into createMarkupStream. What must hold: the markup arrives whole and in order, one chunk
// per burst, streamed parts (Suspense) after the shell; a reader that gives up aborts the render;
// and no AsyncLocalStorage is ever run, so Node 20's process-wide promise hook stays off.

async function readAll(stream: ReadableStream<Uint8Array>) {
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(decoder.decode(chunk));
  return chunks;
}

function render(element: React.ReactElement, onCancel = vi.fn()) {
  let abort!: (reason?: unknown) => void;
  const { destination, stream } = createMarkupStream((reason) => {
    onCancel(reason);
    abort(reason);
  });
  const ready = new Promise<void>((resolve, reject) => {
    const rendering = renderToPipeableStream(element, {
      onShellReady() {
        rendering.pipe(destination as unknown as NodeJS.WritableStream);
        resolve();
      },
      onShellError: reject,
      onError: () => undefined,
    });
    abort = rendering.abort;
  });
  return { stream, ready };
}

afterEach(() => vi.restoreAllMocks());

describe("pages rendered into createMarkupStream", () => {
  it("sends the shell as one chunk, with text escaped and UTF-8 intact, and runs no AsyncLocalStorage", async () => {
    const run = vi.spyOn(AsyncLocalStorage.prototype, "run");
    const enterWith = vi.spyOn(AsyncLocalStorage.prototype, "enterWith");
    const rows = Array.from({ length: 100 }, (_, i) => createElement("li", { key: i, id: `r${i}` }, `Note ${i} ★ <&>`));
    const { stream, ready } = render(createElement("ul", null, rows));
    await ready;
    const chunks = await readAll(stream);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatch(/^<ul><li id="r0">Note 0 ★ &lt;&amp;&gt;<\/li>/);
    expect(chunks[0].split("<li").length - 1).toBe(100);
    expect(run).not.toHaveBeenCalled();
    expect(enterWith).not.toHaveBeenCalled();
  });

  it("streams a suspended part after the shell, in its own burst", async () => {
    let reveal!: (text: string) => void;
    const later = new Promise<string>((resolve) => (reveal = resolve));
    const Late = () => createElement("p", null, use(later));
    const { stream, ready } = render(
      createElement("main", null, createElement("h1", null, "Shell"), createElement(Suspense, { fallback: createElement("i", null, "…") }, createElement(Late))),
    );
    await ready;
    const reading = readAll(stream);
    setTimeout(() => reveal("Arrived later"), 20);
    const chunks = await reading;
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks[0]).toContain("<h1>Shell</h1>");
    expect(chunks[0]).not.toContain("Arrived later");
    expect(chunks.join("")).toContain("Arrived later");
  });

  it("aborts the render when the reader gives up", async () => {
    const onCancel = vi.fn();
    const never = new Promise<string>(() => undefined);
    const Never = () => createElement("p", null, use(never));
    const { stream, ready } = render(createElement("div", null, createElement(Suspense, { fallback: "waiting" }, createElement(Never))), onCancel);
    await ready;
    const reader = stream.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("waiting");
    await reader.cancel("client went away");
    expect(onCancel).toHaveBeenCalledWith("client went away");
  });
});
