import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DiffText } from "~/components/content/history-diff";
import { sizeChangeLabel } from "~/common/content/version-reasons";
import { diffWords } from "diff";
import { changes, wholeDiff, wordDiff, wordDiffWith, type DiffPart } from "~/common/content/word-diff";
import {
  DIFF_INLINE_BELOW,
  DIFF_MAX_WAITING,
  DIFF_THREADS,
  wordDiffOffThread,
} from "~/services/content/word-diff-worker.server";

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

describe("the word diff as a pure function (what the worker thread runs)", () => {
  it("is wordDiff with the diff given; a diff that gives up answers the whole version removed and the text added", () => {
    const [before, after] = ["The red boat left the harbour", "The blue boat left the quiet harbour"];
    expect(wordDiffWith(diffWords, before, after, 500)).toEqual(wordDiff(before, after));
    const gaveUp = () => undefined;
    expect(kinds(wordDiffWith(gaveUp, before, after, 500))).toEqual([`removed:${before}`, `added:${after}`]);
    expect(wholeDiff(before, after)).toEqual(wordDiffWith(gaveUp, before, after, 500));
    // Equal texts need no diff at all, and one side empty is the other side whole.
    expect(kinds(wordDiffWith(gaveUp, "Same", "Same", 500))).toEqual(["same:Same"]);
    expect(kinds(wholeDiff("", "New"))).toEqual(["added:New"]);
    expect(wholeDiff("", "")).toEqual([]);
  });

  it("is self-contained: its own source, evaluated alone, gives the same parts (as in the worker)", () => {
    const alone = new Function(`return (${wordDiffWith.toString()});`)() as typeof wordDiffWith;
    const [before, after] = ["one two three four", "one 2 three four five"];
    expect(alone(diffWords, before, after, 500)).toEqual(wordDiff(before, after));
  });
});

describe("the word diff off the main thread", () => {
  /** A text of `words` words over DIFF_INLINE_BELOW together with its twin: worked by a thread. */
  const long = (words: number, word = (i: number) => `word${i}`) =>
    Array.from({ length: words }, (_, i) => word(i)).join(" ");

  it("gives large texts the same parts as inline; small ones are diffed inline", async () => {
    const before = long(3000);
    const after = before.replace("word1500 ", "changed ");
    expect(before.length + after.length).toBeGreaterThan(DIFF_INLINE_BELOW);
    const parts = await wordDiffOffThread(before, after);
    expect(parts).toEqual(wordDiff(before, after));
    expect(kinds(parts).filter((part) => !part.startsWith("same"))).toEqual(["removed:word1500", "added:changed"]);
    expect(await wordDiffOffThread("a red boat", "a blue boat")).toEqual(wordDiff("a red boat", "a blue boat"));
  });

  it("past the threads and the waiting line, a diff is answered at once as the diff that gave up", async () => {
    const before = long(3000);
    const after = before.replace("word10 ", "changed ");
    const asked = DIFF_THREADS + DIFF_MAX_WAITING + 3;
    const answers = await Promise.all(Array.from({ length: asked }, () => wordDiffOffThread(before, after)));
    const whole = answers.filter((parts) => !parts.some((part) => part.kind === "same"));
    // The threads' own and the waiting ones' are real diffs; the three past the line are not worked.
    expect(whole).toHaveLength(3);
    for (const parts of whole) expect(parts).toEqual(wholeDiff(before, after));
    expect(answers.slice(0, DIFF_THREADS + DIFF_MAX_WAITING)).toEqual(
      Array.from({ length: DIFF_THREADS + DIFF_MAX_WAITING }, () => wordDiff(before, after)),
    );
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
