import { useT } from "~/components/ui/i18n";

/*
 * The dashboard list's rows (./dashboard-list.tsx): written as elements in the browser (contentRow),
 * as one string on the server (contentRowsMarkup), and read back from the page (readContentRows).
 */

/** A row as the server orders them: pinned first, then most recently changed first. */
export interface ContentListItem {
  id: string;
  title: string;
  pinned: boolean;
}

/**
 * The row just made or pinned with a plain form (the dashboard's loader reads it once): it is
 * highlighted, and its title (after Create) or its star (after a pin) has the focus when the page
 * opens, which brings it into view even without JavaScript (autofocus). docs/screens.md#after-create-and-a-pin.
 */
export interface JustChangedRow {
  id: string;
  part: "title" | "pin";
}

/** Where a row's form posts (the content screen's action), with the item's id after it. */
export const ROW_ACTION = "/content/";

/**
 * The words the rows' buttons are named with, once for the page: each button's name is one of them
 * and its row's title ("Delete Shopping list"), by aria-labelledby, so the 100 titles are not written
 * three times each.
 */
// One letter each: 200 references a page. No other element of a page has a one-letter id.
const LABEL_IDS = { pin: "p", unpin: "u", delete: "d" } as const;

export function RowLabels() {
  const { t } = useT();
  return (
    <>
      <span hidden id={LABEL_IDS.pin}>
        {t("Pin")}
      </span>
      <span hidden id={LABEL_IDS.unpin}>
        {t("Unpin")}
      </span>
      <span hidden id={LABEL_IDS.delete}>
        {t("Delete")}
      </span>
    </>
  );
}

/**
 * One row: pin star, title link, Delete (`deleteWord`: the button's word in the screen's language,
 * `t("Delete")`; its name is RowLabels' word and the title). A plain function of its item called by the list, not a
 * component (a page has 100 rows: no component of its own to render, no hooks): the list submits
 * for it and reads what is pending. readContentRows reads it back. The server writes the same rows
 * with contentRowsMarkup: a change here is made there too (the unit test compares them).
 */
export function contentRow(
  item: ContentListItem,
  index: number,
  deleting: boolean,
  redirectTo: string,
  changed: JustChangedRow["part"] | null = null,
  deleteWord = "Delete",
) {
  const action = `${ROW_ACTION}${encodeURIComponent(item.id)}`;
  // Short ids (a page has 100 rows): p/u/d name the buttons' words, c{index} the row's title.
  const titleId = `c${index}`;
  // A row being deleted stays mounted (hidden) so that a failure can bring it back and say so.
  // The markup is as small as it can be while each control keeps its name (a page has 100 rows):
  // no classes (styled by place), buttons submit by default and say what they ask for by their name
  // alone (formIntent), and the star is a "Pin"/"Unpin" button, not a toggle: its name changes with
  // the state, so it carries no aria-pressed (a toggle's name must not change).
  return (
    <li key={item.id} hidden={deleting} className={changed ? JUST_CHANGED_CLASS : undefined}>
      <form method="post" action={action}>
        {redirectTo === "/dashboard" ? null : <input type="hidden" name="redirectTo" value={redirectTo} />}
        <button
          name={item.pinned ? "unpin" : "pin"}
          aria-labelledby={`${item.pinned ? LABEL_IDS.unpin : LABEL_IDS.pin} ${titleId}`}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- back from a plain-form pin: the star the person pressed
          autoFocus={changed === "pin" || undefined}
        >
          {item.pinned ? "★" : "☆"}
        </button>
        {/* eslint-disable-next-line jsx-a11y/no-autofocus -- after Create: the new piece, in view */}
        <a id={titleId} href={action} autoFocus={changed === "title" || undefined}>
          {item.title}
        </a>
        <button name="delete" aria-labelledby={`${LABEL_IDS.delete} ${titleId}`}>
          {deleteWord}
        </button>
      </form>
    </li>
  );
}

/** The class of the just-changed row (app.css). */
export const JUST_CHANGED_CLASS = "just-changed";

/** Text escaped for HTML as React escapes it, in text and in attribute values alike. */
const HTML_ESCAPES: Record<string, string> = { '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" };
const escapeHtml = (text: string) => text.replace(/["&'<>]/g, (character) => HTML_ESCAPES[character]);

/**
 * The rows exactly as React writes contentRow's elements (tests/unit/content-rows-markup.test.ts
 * holds them equal), as one string: what the server sends. About 600 elements a page rendered one by
 * one were a third of the dashboard's render (docs/performance.md); a string of them costs a few percent. The
 * browser renders the same rows as elements (contentRow) and hydrates them from this markup.
 */
export function contentRowsMarkup(
  items: ContentListItem[],
  deletes: ReadonlySet<string>,
  redirectTo: string,
  changed: JustChangedRow | null = null,
  deleteWord = "Delete",
): string {
  const deleteText = escapeHtml(deleteWord);
  const back =
    redirectTo === "/dashboard" ? "" : `<input type="hidden" name="redirectTo" value="${escapeHtml(redirectTo)}"/>`;
  let html = "";
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const action = escapeHtml(`${ROW_ACTION}${encodeURIComponent(item.id)}`);
    const titleId = `c${index}`;
    const part = changed?.id === item.id ? changed.part : null;
    const starFocus = part === "pin" ? ' autofocus=""' : "";
    const star = item.pinned
      ? `<button aria-labelledby="${LABEL_IDS.unpin} ${titleId}"${starFocus} name="unpin">★</button>`
      : `<button aria-labelledby="${LABEL_IDS.pin} ${titleId}"${starFocus} name="pin">☆</button>`;
    html +=
      `<li${deletes.has(item.id) ? ' hidden=""' : ""}${part ? ` class="${JUST_CHANGED_CLASS}"` : ""}>` +
      `<form action="${action}" method="post">${back}${star}` +
      `<a id="${titleId}" href="${action}"${part === "title" ? ' autofocus=""' : ""}>${escapeHtml(item.title)}</a>` +
      `<button aria-labelledby="${LABEL_IDS.delete} ${titleId}" name="delete">${deleteText}</button></form></li>`;
  }
  return html;
}

/**
 * The rows as contentRow wrote them into the page, in its order: what the dashboard hydrates from when
 * its loader data leaves them to the markup (app/components/ui/use-markup-only.tsx).
 */
export function readContentRows(): ContentListItem[] {
  const rows = document.querySelectorAll<HTMLLIElement>("#content .content-list > li");
  return [...rows].map((row) => {
    const action = row.querySelector("form")?.getAttribute("action") ?? "";
    return {
      id: decodeURIComponent(action.slice(ROW_ACTION.length)),
      title: row.querySelector("a")?.textContent ?? "",
      pinned: row.querySelector("button")?.name === "unpin",
    };
  });
}
