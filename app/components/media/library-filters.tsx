import { useEffect, useRef } from "react";
import { Form, Link, useSubmit } from "react-router";
import { formatNumber } from "~/common/i18n/formats";
import {
  KIND_LABELS,
  LIBRARY_KINDS,
  LIBRARY_SORTS,
  librarySearch,
  SORT_LABELS,
  type LibraryFilters,
} from "~/common/media/library-rules";
import { DELETE_CONFIRM } from "./library-texts";
import { useT } from "~/components/ui/i18n";
import { useHydrated } from "~/components/ui/use-hydrated";

/** Page numbers as before languages: in the language's digits, never grouped ("1000"). */
export const PLAIN = { useGrouping: false } as const;

/** How long typing in Search pauses before the list follows it. */
const SEARCH_PAUSE_MS = 300;

/**
 * The library's filter form: kind, search and sort, a plain GET form with Apply, so it works without
 * JavaScript. With it the list follows each change (a select at once, Search after a short pause):
 * the same GET, in place of the history entry, the page and the focus staying where they are; Apply
 * is then not shown (docs/screens.md, "Library: upload bar, filters, cards").
 */
export function LibraryFilterForm({ filters }: { filters: LibraryFilters }) {
  const { t } = useT();
  const hydrated = useHydrated();
  const submit = useSubmit();
  const pause = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (pause.current) clearTimeout(pause.current);
    },
    [],
  );
  const apply = (form: HTMLFormElement) => {
    if (pause.current) clearTimeout(pause.current);
    pause.current = null;
    void submit(form, { method: "get", action: "/library", replace: true, preventScrollReset: true });
  };
  const onChange = (event: React.FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    if ((event.target as HTMLElement).tagName === "SELECT") return apply(form);
    if (pause.current) clearTimeout(pause.current);
    pause.current = setTimeout(() => apply(form), SEARCH_PAUSE_MS);
  };
  return (
    <Form
      method="get"
      action="/library"
      className="card library-filters"
      role="search"
      aria-label={t("Filter your library")}
      onChange={hydrated ? onChange : undefined}
      onSubmit={
        hydrated
          ? (event) => {
              event.preventDefault();
              apply(event.currentTarget);
            }
          : undefined
      }
    >
      <label>
        {t("Kind")}
        <select name="kind" defaultValue={filters.kind}>
          <option value="">{t("All kinds")}</option>
          {LIBRARY_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t(KIND_LABELS[kind])}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("Search")}
        <input type="search" name="q" defaultValue={filters.q} placeholder={t("Name or prompt")} maxLength={200} />
      </label>
      <label>
        {t("Sort")}
        <select name="sort" defaultValue={filters.sort}>
          {LIBRARY_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {t(SORT_LABELS[sort])}
            </option>
          ))}
        </select>
      </label>
      {hydrated ? null : (
        <button type="submit" className="button library-apply">
          {t("Apply")}
        </button>
      )}
    </Form>
  );
}

/** Without JavaScript, Delete asks here first (?delete={id}) and posts `confirmed`. */
export function DeleteConfirmPanel({ file, back }: { file: { id: string; name: string }; back: string }) {
  const { t } = useT();
  return (
    <Form
      method="post"
      action={`/library${back}`}
      className="card confirm-panel"
      role="alertdialog"
      aria-labelledby="confirm-delete"
    >
      <p id="confirm-delete" className="confirm-question">
        {t(DELETE_CONFIRM)} <span className="muted">({file.name})</span>
      </p>
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="confirmed" value="1" />
      <input type="hidden" name="id" value={file.id} />
      <input type="hidden" name="back" value={back} />
      <div className="library-actions">
        <button type="submit" className="button button-danger">
          {t("Delete")}
        </button>
        <Link className="button button-ghost" to={`/library${back}`}>
          {t("Cancel")}
        </Link>
      </div>
    </Form>
  );
}

/** Previous / Next links between the pages of a view (none when it fits on one). */
/** Next starts after this page's last file (its cursor, decision 0076); Previous goes by the page's number. */
export function LibraryPages({
  filters,
  pages,
  next = null,
}: {
  filters: LibraryFilters;
  pages: number;
  next?: string | null;
}) {
  const { t, language } = useT();
  if (pages <= 1) return null;
  return (
    <nav className="library-pages" aria-label={t("Pages")}>
      {filters.page > 1 ? (
        <Link
          className="button button-small"
          rel="prev"
          to={`/library${librarySearch({ ...filters, page: filters.page - 1 })}`}
        >
          {t("← Previous")}
        </Link>
      ) : null}
      <span>
        {t("Page {{page}} of {{pages}}", {
          page: formatNumber(language, filters.page, PLAIN),
          pages: formatNumber(language, pages, PLAIN),
        })}
      </span>
      {filters.page < pages ? (
        <Link
          className="button button-small"
          rel="next"
          to={`/library${librarySearch({ ...filters, page: filters.page + 1 }, next ? { cursor: next } : {})}`}
        >
          {t("Next →")}
        </Link>
      ) : null}
    </nav>
  );
}
