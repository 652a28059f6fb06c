import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { SharedDeflate } from "../../app/lib/zip/zip-deflate.server";

// The zip's one deflate path for small entries (app/lib/zip/zip-deflate.server.ts, docs/decisions/0078).
// Its entries' bytes as a zip reader reads them: tests/unit/zip-stream.test.ts.

describe("SharedDeflate", () => {
  it("gives each entry a complete raw deflate stream of its own, one after another on one stream", async () => {
    const deflater = new SharedDeflate();
    const inputs = [
      Buffer.from("# A note\n\nlorem ipsum ".repeat(40)),
      Buffer.from("x"),
      Buffer.alloc(0),
      randomBytes(100_000), // does not shrink: stored blocks, deflate's worst case
      Buffer.from("é€😀 ".repeat(30_000)),
      Buffer.from("after a large one"),
    ];
    for (const input of inputs) {
      const deflated = await deflater.deflate(input, 4032);
      // Each inflates alone (a zip reader starts at each entry) to exactly its input.
      expect(zlib.inflateRawSync(deflated).equals(input)).toBe(true);
      if (input.length > 1000 && input.length < 50_000) expect(deflated.length).toBeLessThan(input.length / 4);
    }
    deflater.close();
  });

  it("deflates a view into a larger buffer (the zip's reused text buffer) by its own bytes only", async () => {
    const deflater = new SharedDeflate();
    const backing = Buffer.from("0123456789 hello hello hello hello hello 0123456789");
    const view = backing.subarray(11, 40);
    expect(zlib.inflateRawSync(await deflater.deflate(view, 4032)).toString()).toBe(view.toString());
    deflater.close();
  });
});
