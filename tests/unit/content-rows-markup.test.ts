import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  contentRow,
  contentRowsMarkup,
  type ContentListItem,
  type JustChangedRow,
} from "~/components/content/content-rows";

/**
 * The dashboard's rows are written by the server as one string (contentRowsMarkup) and rendered by
 * the browser as elements (contentRow), which hydrate from that string: the two must be the same markup.
 */
const rows = (items: ContentListItem[], deletes: Set<string>, redirectTo: string, changed: JustChangedRow | null) =>
  renderToStaticMarkup(
    createElement(
      "ul",
      null,
      items.map((item, index) =>
        contentRow(item, index, deletes.has(item.id), redirectTo, changed?.id === item.id ? changed.part : null),
      ),
    ),
  );

const items: ContentListItem[] = [
  { id: "0b9f3c1e-4d7a-4c1b-9e55-1f2a3b4c5d6e", title: "Shopping list", pinned: true },
  { id: "a&b<c>\"d'e", title: `Tricky <b>"quotes"</b> & 'apostrophes' </a><script>alert(1)</script>`, pinned: false },
  { id: "plain", title: "Émojis 🎨 and ünïcödé — “curly” ‘quotes’", pinned: false },
  { id: "spaces in id", title: "   leading and trailing spaces   ", pinned: true },
  { id: "amp", title: "&amp; already escaped &lt;", pinned: false },
];

describe("the dashboard's rows as a string", () => {
  it.each([
    ["/dashboard", new Set<string>(), null],
    ["/dashboard?page=2&q=a%22b%3Cc", new Set<string>(), null],
    ["/dashboard?edit=1", new Set(["plain", "amp"]), null],
    // The row just made (its title has the focus) or pinned without JavaScript (its star has it).
    ["/dashboard", new Set<string>(), { id: "plain", part: "title" } as const],
    ["/dashboard?q=a", new Set<string>(), { id: items[1].id, part: "pin" } as const],
    ["/dashboard", new Set<string>(), { id: items[0].id, part: "pin" } as const],
  ])("are React's markup of the rows (return to %s)", (redirectTo, deletes, changed) => {
    expect(`<ul>${contentRowsMarkup(items, deletes, redirectTo, changed)}</ul>`).toBe(
      rows(items, deletes, redirectTo, changed),
    );
  });

  it("mark the just-changed row and focus its part", () => {
    const markup = contentRowsMarkup(items, new Set(), "/dashboard", { id: "plain", part: "title" });
    expect(markup.match(/autofocus/g)).toHaveLength(1);
    expect(markup).toContain(`<li class="just-changed"><form action="/content/plain"`);
    expect(markup).toContain(`href="/content/plain" autofocus="">`);
  });

  it("write nothing for no rows", () => {
    expect(contentRowsMarkup([], new Set(), "/dashboard")).toBe("");
  });
});
