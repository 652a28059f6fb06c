import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { SharedDeflate } from "../../app/lib/zip-deflate.server";

// The zip's one deflate path for small entries (app/lib/zip-deflate.server.ts, docs/decisions/0078).

describe("SharedDeflate", () => {
  it("shares one zlib stream on this Node, and gives deflateRawSync's bytes for each entry", () => {
    const deflater = new SharedDeflate();
    expect(deflater.shared).toBe(true);
    const inputs = [
      Buffer.from("# A note\n\nlorem ipsum ".repeat(40)),
      Buffer.from("x"),
      Buffer.alloc(0),
      randomBytes(100_000), // does not shrink: stored blocks, deflate's worst case
      Buffer.from("é€😀 ".repeat(30_000)),
      Buffer.from("after a large one"),
    ];
    for (const input of inputs) {
      const deflated = Buffer.from(deflater.deflate(input, 4032));
      expect(deflated.equals(zlib.deflateRawSync(input))).toBe(true);
      expect(zlib.inflateRawSync(deflated).equals(input)).toBe(true);
    }
    deflater.close();
  });

  it("deflates a view into a larger buffer (the zip's reused text buffer) by its own bytes only", () => {
    const deflater = new SharedDeflate();
    const backing = Buffer.from("0123456789 hello hello hello hello hello 0123456789");
    const view = backing.subarray(11, 40);
    expect(zlib.inflateRawSync(deflater.deflate(view, 4032)).toString()).toBe(view.toString());
    deflater.close();
  });
});
