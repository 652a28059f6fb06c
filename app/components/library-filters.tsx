import { Form, Link } from "react-router";
import {
  KIND_LABELS,
  LIBRARY_KINDS,
  LIBRARY_SORTS,
  librarySearch,
  SORT_LABELS,
  type LibraryFilters,
} from "~/shared/library-rules";
import { DELETE_CONFIRM } from "./library-texts";

/** The library's filter form: kind, search and sort, a plain GET form so it works without JavaScript. */
export function LibraryFilterForm({ filters }: { filters: LibraryFilters }) {
  return (
    <Form
      method="get"
      action="/library"
      className="card library-filters"
      role="search"
      aria-label="Filter your library"
    >
      <label>
        Kind
        <select name="kind" defaultValue={filters.kind}>
          <option value="">All kinds</option>
          {LIBRARY_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {KIND_LABELS[kind]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Search
        <input type="search" name="q" defaultValue={filters.q} placeholder="Name or prompt" maxLength={200} />
      </label>
      <label>
        Sort
        <select name="sort" defaultValue={filters.sort}>
          {LIBRARY_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button">
        Apply
      </button>
    </Form>
  );
}

/** Without JavaScript, Delete asks here first (?delete={id}) and posts `confirmed`. */
export function DeleteConfirmPanel({ file, back }: { file: { id: string; name: string }; back: string }) {
  return (
    <Form
      method="post"
      action={`/library${back}`}
      className="card confirm-panel"
      role="alertdialog"
      aria-labelledby="confirm-delete"
    >
      <p id="confirm-delete" className="confirm-question">
        {DELETE_CONFIRM} <span className="muted">({file.name})</span>
      </p>
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="confirmed" value="1" />
      <input type="hidden" name="id" value={file.id} />
      <input type="hidden" name="back" value={back} />
      <div className="library-actions">
        <button type="submit" className="button button-danger">
          Delete
        </button>
        <Link className="button button-ghost" to={`/library${back}`}>
          Cancel
        </Link>
      </div>
    </Form>
  );
}

/** Previous / Next links between the pages of a view (none when it fits on one). */
export function LibraryPages({ filters, pages }: { filters: LibraryFilters; pages: number }) {
  if (pages <= 1) return null;
  return (
    <nav className="library-pages" aria-label="Pages">
      {filters.page > 1 ? (
        <Link
          className="button button-small"
          rel="prev"
          to={`/library${librarySearch({ ...filters, page: filters.page - 1 })}`}
        >
          ← Previous
        </Link>
      ) : null}
      <span>
        Page {filters.page} of {pages}
      </span>
      {filters.page < pages ? (
        <Link
          className="button button-small"
          rel="next"
          to={`/library${librarySearch({ ...filters, page: filters.page + 1 })}`}
        >
          Next →
        </Link>
      ) : null}
    </nav>
  );
}
