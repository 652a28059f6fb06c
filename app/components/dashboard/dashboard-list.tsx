import { useLayoutEffect, useRef } from "react";
import { Form, Link, useFetchers, useLocation, useSubmit } from "react-router";
import { confirmDelete } from "~/browser/confirm-delete";
import { focusAfterRemoval } from "~/browser/focus";
import { formIntent, pinnedBy } from "~/common/content/pin-form";
import { FlashFallback } from "~/components/shell/flash-message";
import { useFollowLinksInApp } from "~/components/shell/in-app-links";
import {
  ROW_ACTION,
  RowLabels,
  contentRow,
  contentRowsMarkup,
  type ContentListItem,
  type JustChangedRow,
} from "~/components/content/content-rows";
import { useJustChangedRow } from "~/components/ui/just-changed-row";
import { withPendingPins } from "./pending-pins";
import { useT } from "~/components/ui/i18n";
import { formatNumber } from "~/common/i18n/formats";
import { msg } from "~/common/i18n/translate";

/** docs/screens.md#screens-and-routes and #error-messages texts of the dashboard list (catalogue keys: a screen shows `t(TEXT)`). */
export const EMPTY_CONTENT_TEXT = msg("No content yet. Click Create to get started!");
export const PIN_FAILED_TEXT = msg("Could not update pin");
export const DELETE_FAILED_TEXT = msg("Failed to delete content");
export const DELETE_CONFIRM_TEXT = msg("Delete this content?");
/** The search box's empty state (decision 0019): `t(NO_RESULTS_TEXT, { query })`. */
export const NO_RESULTS_TEXT = msg("No results for “{{query}}”.");

/** What the content screen's action answers to a fetcher (pin, delete). */
export interface ContentActionResult {
  ok: boolean;
  intent?: string | null;
  message?: string;
}

interface ContentListProps {
  /** In the server's order (pinned first, then most recently changed first). */
  items: ContentListItem[];
  /**
   * Each pinned item's rank by last change among all the page's items (0: the most recent), in list
   * order: all the list needs of updated_at to place a row the person pins or unpins before the
   * server answers (the unpinned items take the other ranks, in list order).
   */
  pinnedRanks: number[];
  total: number;
  /** 1-based page of `pageSize` items (the dashboard renders one page, never the whole list). */
  page: number;
  pageSize: number;
  /** The cursor of the next page (its Next link carries it: decision 0076), or null on the last page. */
  next?: string | null;
  /** The search the list shows the matches of (?q=); "" for the whole list. */
  query?: string;
  /** The row just made or pinned with a plain form: highlighted, in view, with the focus. */
  justChanged?: JustChangedRow | null;
}

/**
 * Pins and deletes the person asked for that the server has not confirmed yet: the list shows them
 * at once and falls back to the server's data when a request fails (optimistic UI).
 */
function usePendingChanges() {
  const pins = new Map<string, boolean>();
  const deletes = new Set<string>();
  for (const fetcher of useFetchers()) {
    const form = fetcher.formData;
    const id = form?.get("id");
    if (!form || typeof id !== "string") continue;
    const intent = formIntent(form);
    const pinned = pinnedBy(form);
    if (pinned !== null) pins.set(id, pinned);
    if (intent === "delete") deletes.add(id);
  }
  return { pins, deletes };
}

/**
 * The rows' forms, enhanced from the list (their submit events bubble to it): without JavaScript the
 * pressed button's intent is posted and the action redirects back; with it, the same fields go as a
 * fetcher keyed by row and intent, which the list reads for its optimistic order. A failed answer
 * is said by the content route's clientAction (a toast), so rows need no fetcher of their own.
 */

function useRowSubmissions(keepFocus: React.RefObject<HTMLElement | null>) {
  const { t } = useT();
  const submit = useSubmit();
  return (event: React.FormEvent<HTMLElement>) => {
    const form = event.target as HTMLFormElement;
    // A row's form posts to /content/{id}: its action names the item (no attribute of its own: 100 rows).
    const action = form.getAttribute("action") ?? "";
    if (!action.startsWith(ROW_ACTION)) return;
    const id = decodeURIComponent(action.slice(ROW_ACTION.length));
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const data = new FormData(form, submitter);
    // The row's buttons post their names (pin=, unpin=, delete=): the fetcher carries the intent itself.
    const intent = formIntent(data);
    if (intent) data.set("intent", intent);
    // A pin moves its row (pinned first): the star keeps the focus when the row is moved.
    if (intent !== "delete" && submitter) keepFocus.current = submitter;
    data.set("enhanced", "1");
    data.set("id", id);
    const fetcherKey = `content-${intent === "delete" ? "delete" : "pin"}-${id}`;
    if (intent !== "delete") return void submit(data, { method: "post", action, navigate: false, fetcherKey });
    // docs/screens.md#dialogs: delete asks first, in the app's dialog, with the title under the question
    // (without JavaScript the content screen asks on its page).
    const title = form.querySelector("a")?.textContent ?? undefined;
    void confirmDelete(submitter, { message: t(DELETE_CONFIRM_TEXT), detail: title }).then((confirmed) => {
      if (!confirmed) return;
      // The row hides at once: its Delete keeps no focus, so the next row's Delete takes it.
      focusAfterRemoval(form.closest("li"), 'button[name="delete"]', () => document.getElementById("content-heading"));
      data.set("confirmed", "1");
      void submit(data, { method: "post", action, navigate: false, fetcherKey });
    });
  };
}

/** The query parameters the dashboard reads (its loader: page, q, edit); a row's form returns with these only. */
const LIST_PARAMS = ["page", "q", "edit"];

/**
 * Where a row's plain form sends the person back: this page of the list with its search and edit
 * mode, without any other query parameter (none changes the page). So /dashboard with a parameter
 * it does not read adds no hidden field to each of the 100 rows.
 */
function listReturnPath(pathname: string, search: string): string {
  if (!search) return pathname;
  const params = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const [name, value] of params) if (LIST_PARAMS.includes(name)) kept.append(name, value);
  const query = kept.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** The user's content items below the dashboard tools: pin star, title link, Delete; one page at a time. */
export function ContentList({
  items,
  pinnedRanks,
  total,
  page,
  pageSize,
  next = null,
  query = "",
  justChanged = null,
}: ContentListProps) {
  const { t, language } = useT();
  const number = (value: number) => formatNumber(language, value);
  const deleteWord = t("Delete");
  const location = useLocation();
  const redirectTo = listReturnPath(location.pathname, location.search);
  const { pins, deletes } = usePendingChanges();
  // The titles are plain links (a <Link> per row costs more to render than the rest of the row).
  const followLink = useFollowLinksInApp();
  const keepFocus = useRef<HTMLElement | null>(null);
  const submitRow = useRowSubmissions(keepFocus);
  // docs/screens.md#states-and-transitions: pinned first, then most recently updated first (the server's order), pending pins included.
  // With no pin pending (always on the server) that order is the server's own: nothing to sort.
  const shown = pins.size === 0 ? items : withPendingPins(items, pinnedRanks, pins);
  // Moving a focused row in the DOM drops its focus to <body>: give it back, until the pins are settled.
  useLayoutEffect(() => {
    const star = keepFocus.current;
    const lost = !document.activeElement || document.activeElement === document.body;
    if (star?.isConnected && lost) star.focus();
    if (pins.size === 0) keepFocus.current = null;
  });
  const visibleCount = shown.filter((item) => !deletes.has(item.id)).length;
  // The server writes the rows as one string, the browser hydrates and renders them as elements.
  const rowsMarkup = import.meta.env.SSR
    ? contentRowsMarkup(shown, deletes, redirectTo, justChanged, deleteWord)
    : null;
  useJustChangedRow(justChanged);

  const first = (page - 1) * pageSize + 1;
  const last = first + items.length - 1;
  const hasPrevious = page > 1;
  const hasNext = page * pageSize < total;
  const pageLink = (target: number) => {
    const params = new URLSearchParams(location.search);
    if (target <= 1) params.delete("page");
    else params.set("page", String(target));
    // Next starts after this page's last row; Previous goes by its number.
    if (target === page + 1 && next) params.set("cursor", next);
    else params.delete("cursor");
    const search = params.toString();
    return `/dashboard${search ? `?${search}` : ""}#content`;
  };

  return (
    <section className="content-section" aria-labelledby="content-heading" id="content">
      <div className="content-section-header">
        <h2 id="content-heading">{t("Your content")}</h2>
        <ContentSearch query={query} />
      </div>
      <FlashFallback />
      {query && total > 0 ? (
        <p className="muted" role="status">
          {t("{{total}} items match “{{query}}”", { count: total, total: number(total), query })}
        </p>
      ) : null}
      {visibleCount === 0 && !hasPrevious ? (
        query ? (
          <p className="muted content-empty" role="status">
            {t(NO_RESULTS_TEXT, { query })} <Link to="/dashboard#content">{t("Clear search")}</Link>
          </p>
        ) : (
          <p className="muted content-empty">{t(EMPTY_CONTENT_TEXT)}</p>
        )
      ) : null}
      <RowLabels />
      {/* Rows stay mounted while a delete is pending, even the last one, so a failure can roll back. */}
      {shown.length > 0 ? (
        <ul
          className="content-list"
          aria-label={t("Content items")}
          hidden={visibleCount === 0}
          onClick={followLink}
          onSubmit={submitRow}
          dangerouslySetInnerHTML={rowsMarkup === null ? undefined : { __html: rowsMarkup }}
        >
          {rowsMarkup === null
            ? shown.map((item, index) =>
                contentRow(
                  item,
                  index,
                  deletes.has(item.id),
                  redirectTo,
                  justChanged?.id === item.id ? justChanged.part : null,
                  deleteWord,
                ),
              )
            : undefined}
        </ul>
      ) : null}
      {total > pageSize ? (
        <nav className="content-pages" aria-label={t("Content pages")}>
          <span className="muted">
            {t("Showing {{first}}–{{last}} of {{total}}", {
              first: number(first),
              last: number(Math.max(first, last)),
              total: number(total),
            })}
          </span>
          {hasPrevious ? (
            <Link className="button button-ghost" to={pageLink(page - 1)}>
              {t("← Previous page")}
            </Link>
          ) : null}
          {hasNext ? (
            <Link className="button" to={pageLink(page + 1)}>
              {t("Next page →")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

/**
 * The search box: a plain GET form to the dashboard (?q=), so it works without JavaScript; with it,
 * React Router's <Form> navigates in the page. Paging keeps ?q= (the page links keep the query string).
 */
function ContentSearch({ query }: { query: string }) {
  const { t } = useT();
  return (
    <Form method="get" action="/dashboard#content" role="search" className="content-search" preventScrollReset>
      <input
        key={query}
        type="search"
        name="q"
        defaultValue={query}
        maxLength={500}
        placeholder={t("Search titles and text")}
        aria-label={t("Search your content")}
      />
      <button type="submit" className="button">
        {t("Search")}
      </button>
      {query ? (
        <Link className="button button-ghost" to="/dashboard#content">
          {t("Clear search")}
        </Link>
      ) : null}
    </Form>
  );
}
