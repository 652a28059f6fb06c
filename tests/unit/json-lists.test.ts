import { describe, expect, it } from "vitest";
import { ByteChunks } from "~/lib/storage/byte-chunks";
import { JsonLists } from "~/lib/db/json-lists";

// The account export's manifest is rendered from lists kept as bytes (docs/decisions/0078): it must be
// exactly what JSON.stringify(document, null, 2) wrote when the lists were arrays.
describe("JsonLists", () => {
  const tricky = {
    id: "x",
    title: 'Grüße "日本語" \\u0000list:content\n  "content": [',
    pinned: true,
    nested: { a: [1, {}] },
  };

  it("renders the document as JSON.stringify(…, null, 2) does, lists full, empty and nested", () => {
    const lists = new JsonLists<"content" | "history">();
    const content = [tricky, { id: "y", title: "", pinned: false, empty: [], none: null }];
    for (const item of content) lists.push("content", item);
    const document = {
      format: "f",
      account: { email: "a@b.c" },
      content: [],
      projects: [{ id: 1 }],
      history: [],
      missing: [],
    };
    const rendered = Buffer.concat(lists.render(document, ["content", "history"])).toString();
    expect(rendered).toBe(`${JSON.stringify({ ...document, content, history: [] }, null, 2)}\n`);
  });

  it("keeps many items in a few large buffers", () => {
    const lists = new JsonLists<"content">();
    const content = Array.from({ length: 20_000 }, (_, n) => ({
      id: `id-${n}`,
      title: `Piece ${n} ✓`,
      path: `content/Piece ${n}.md`,
    }));
    for (const item of content) lists.push("content", item);
    const parts = lists.render({ content: [] }, ["content"]);
    expect(parts.length).toBeLessThan(16);
    expect(Buffer.concat(parts).toString()).toBe(`${JSON.stringify({ content }, null, 2)}\n`);
  });
});

describe("ByteChunks", () => {
  it("gives back exactly what was appended, strings and bytes, a piece larger than a chunk too", () => {
    const chunks = new ByteChunks();
    const pieces: Buffer[] = [];
    for (let n = 0; n < 5000; n++) pieces.push(Buffer.from(`record ${n} ✓ `));
    pieces.push(Buffer.alloc(3 * 1024 * 1024, 7));
    for (const [n, piece] of pieces.entries()) chunks.append(n % 2 ? piece : piece.toString());
    const whole = Buffer.concat(pieces);
    expect(chunks.length).toBe(whole.length);
    expect(Buffer.concat(chunks.chunks()).equals(whole)).toBe(true);
    expect(new ByteChunks().chunks()).toEqual([]);
  });
});
