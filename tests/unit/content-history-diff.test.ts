import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DiffText } from "~/components/content/history-diff";
import { sizeChangeLabel } from "~/common/content/version-reasons";
import { changes, wordDiff, type DiffPart } from "~/common/content/word-diff";

/** The History screen's word diff (docs/decisions/0073-history-screen-and-word-diff.md): computed on the server, written as text. */
const render = (parts: DiffPart[]) => renderToStaticMarkup(createElement(DiffText, { parts }));
const kinds = (parts: DiffPart[]) => parts.map((part) => `${part.kind}:${part.text}`);

describe("word diff", () => {
  it("finds whole words inserted and deleted, and keeps the words in between", () => {
    const parts = wordDiff("The red boat left the harbour", "The blue boat left the quiet harbour");
    expect(kinds(parts)).toEqual([
      "same:The ",
      "removed:red",
      "added:blue",
      "same: boat left the ",
      "added:quiet ",
      "same:harbour",
    ]);
    expect(changes(parts)).toBe(true);
    // Read back, the parts give both texts.
    expect(
      parts
        .filter((part) => part.kind !== "added")
        .map((part) => part.text)
        .join(""),
    ).toBe("The red boat left the harbour");
    expect(
      parts
        .filter((part) => part.kind !== "removed")
        .map((part) => part.text)
        .join(""),
    ).toBe("The blue boat left the quiet harbour");
  });

  it("says nothing changed for equal texts, and all is added or removed against an empty one", () => {
    expect(kinds(wordDiff("Same words", "Same words"))).toEqual(["same:Same words"]);
    expect(changes(wordDiff("Same words", "Same words"))).toBe(false);
    expect(wordDiff("", "")).toEqual([]);
    expect(kinds(wordDiff("", "New text"))).toEqual(["added:New text"]);
    expect(kinds(wordDiff("Old text", ""))).toEqual(["removed:Old text"]);
  });

  it("keeps line breaks in the parts", () => {
    const parts = wordDiff("one\ntwo\nthree", "one\n2\nthree");
    expect(parts.map((part) => part.text).join("")).toContain("\n");
    expect(kinds(parts).filter((part) => !part.startsWith("same"))).toEqual(["removed:two", "added:2"]);
  });
});

describe("diff rendering", () => {
  it("writes insertions as <ins> and deletions as <del>, each with a word for screen readers", () => {
    const html = render(wordDiff("a red boat", "a blue boat"));
    expect(html).toContain(
      '<del><span class="visually-hidden">[removed: </span>red<span class="visually-hidden">]</span></del>',
    );
    expect(html).toContain(
      '<ins><span class="visually-hidden">[added: </span>blue<span class="visually-hidden">]</span></ins>',
    );
    expect(html).toContain("<span>a </span>");
  });

  it("writes markup in a piece as text, never as markup", () => {
    const html = render(
      wordDiff("Hello <b>world</b>", 'Hello <b>world</b> <script>alert("x")</script><img src=x onerror=alert(1)>'),
    );
    expect(html).not.toMatch(/<(script|img|b)[\s>]/);
    expect(html).toContain("<span>Hello &lt;b&gt;world&lt;/b&gt; </span>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;");
    // Markup split by the diff stays text on both sides too.
    const split = render(wordDiff("<b>old</b>", "<i>new</i>"));
    expect(split).not.toMatch(/<(b|i)>/);
    expect(split.replace(/<[^>]+>/g, "")).toContain("&lt;");
  });
});

describe("size change", () => {
  it("reads +120 B, −40 B (a minus sign) and — for none", () => {
    expect(sizeChangeLabel(120)).toBe("+120 B");
    expect(sizeChangeLabel(-40)).toBe("−40 B");
    expect(sizeChangeLabel(2048)).toBe("+2 KiB");
    expect(sizeChangeLabel(null)).toBe("—");
    expect(sizeChangeLabel(0)).toBe("—");
  });
});
