import { describe, expect, it } from "vitest";
import { OutputChunks, Scratch } from "../../app/lib/zip/zip-output.server";

// The zip writer's output chunks and kept buffers (app/lib/zip/zip-output.server.ts, docs/decisions/0078).

describe("OutputChunks", () => {
  it("copies what it is given into whole chunks, so the pieces may be reused at once", async () => {
    const handed: Buffer[] = [];
    const out = new OutputChunks(8, async (chunk) => void handed.push(Buffer.from(chunk)));
    const piece = Buffer.from("abcde");
    await out.write(piece);
    piece.write("XXXXX"); // the writer reuses its buffer: what went out is unchanged
    await out.write(Buffer.from("0123456789"), 2, 9);
    await out.flush();
    expect(handed.map(String)).toEqual(["abcde234", "5678"]);
  });

  it("fills a chunk given back instead of making a new one; not one that is not its own", async () => {
    const handed: Buffer[] = [];
    const out = new OutputChunks(4, async (chunk) => void handed.push(chunk));
    await out.write(Buffer.from("aaaa"));
    out.release(handed[0]!);
    out.release(Buffer.alloc(4));
    await out.write(Buffer.from("bbbb"));
    expect(handed[1]).toBe(handed[0]);
    await out.write(Buffer.from("cccc"));
    expect(handed[2]).not.toBe(handed[0]);
    expect(String(handed[2])).toBe("cccc");
  });
});

describe("Scratch", () => {
  it("encodes parts one after the other as UTF-8, growing when they need more room", () => {
    const scratch = new Scratch(4);
    const parts = ["# ", "Été 😀", "\n\n", "x".repeat(2_000_000), "\n"];
    const { buffer, length } = scratch.encode(parts);
    expect(buffer.subarray(0, length).toString()).toBe(parts.join(""));
    // A long text is measured exactly: the kept buffer is not three times its size.
    expect(buffer.length).toBeLessThan(2 * length);
    const again = scratch.encode("short");
    expect(again.buffer).toBe(buffer);
    expect(again.buffer.subarray(0, again.length).toString()).toBe("short");
  });
});
