import { useEffect, useRef } from "react";
import { data, Form, Link, redirect, useFetcher, useFetchers, useNavigation } from "react-router";
import { withFailureFallback } from "~/browser/network-safe";
import { FlashMessage, formatSize, MediaHeader, OutcomeMessage } from "~/components/media-ui";
import { StorageMeter } from "~/components/storage-meter";
import { toast } from "~/components/toasts";
import { requireUserOrExplain } from "~/auth/auth.server";
import { answersWithData, screenFailure, text } from "~/lib/forms.server";
import { readFormData } from "~/lib/http.server";
import { dataWithSuccess, redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { deleteLibraryFile, getLibraryFile, libraryJson, libraryQuerySchema, listLibrary, renameLibraryFile, storageUsage } from "~/models/library.server";
import { listProjects, setProjectSlot } from "~/models/project.server";
import {
  AUDIO_KINDS,
  DEFAULT_LIBRARY_SORT,
  IMAGE_KINDS,
  KIND_LABELS,
  LIBRARY_KINDS,
  LIBRARY_PAGE_SIZE,
  LIBRARY_SORTS,
  SORT_LABELS,
  VIDEO_KINDS,
  type LibrarySort,
  type Provenance,
} from "~/shared/library";
import type { MediaKind } from "~/shared/media-names";
import libraryStylesheet from "~/styles/library.css?url";
import type { Route } from "./+types/library";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: libraryStylesheet }];

export const meta: Route.MetaFunction = () => [
  { title: "Library · Creative AI Studio" },
  { name: "description", content: "Every file you made or uploaded, with how it was made." },
];

/** The screen's texts (SPEC §8 style: short, what happened and what to do). */
const LOAD_FAILED = "Could not load your library.";
const DELETE_CONFIRM = "Delete this file? It is removed from every project that uses it.";
const DELETE_FAILED = "Failed to delete file.";
const RENAME_FAILED = "Failed to rename file.";
const ATTACH_FAILED = "Failed to attach file.";
const LOG_IN_AGAIN = "Please log in again.";
/** Kinds the AI tools make: their provenance is shown, "unknown" for files from before it was kept. */
const GENERATED_KINDS: readonly MediaKind[] = ["speech", "image", "aivideo", "sketch"];

type SlotOfKind = "voice" | "video" | "image";
const slotOf = (kind: MediaKind): SlotOfKind => (AUDIO_KINDS.includes(kind) ? "voice" : VIDEO_KINDS.includes(kind) ? "video" : "image");

interface Filters {
  kind: MediaKind | "";
  q: string;
  sort: LibrarySort;
  page: number;
}

/** The query string of a list view (defaults left out), for links and for coming back after a post. */
function searchOf(filters: Filters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filters.kind) params.set("kind", filters.kind);
  if (filters.q) params.set("q", filters.q);
  if (filters.sort !== DEFAULT_LIBRARY_SORT) params.set("sort", filters.sort);
  if (filters.page > 1) params.set("page", String(filters.page));
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const search = params.toString();
  return search ? `?${search}` : "";
}

/** The filters a URL (or a posted form's `back`) names; what does not parse falls back to the default. */
function filtersOf(search: URLSearchParams): { filters: Filters; problem: string | null } {
  const parsed = libraryQuerySchema.safeParse({
    kind: search.get("kind") ?? undefined,
    q: search.get("q") ?? undefined,
    sort: search.get("sort") ?? undefined,
    page: search.get("page") ?? undefined,
  });
  if (!parsed.success) {
    return { filters: { kind: "", q: "", sort: DEFAULT_LIBRARY_SORT, page: 1 }, problem: parsed.error.issues[0]?.message ?? "Invalid filter" };
  }
  const { kind, q, sort, page } = parsed.data;
  return { filters: { kind: kind ?? "", q: q?.trim() ?? "", sort, page }, problem: null };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await requireUserOrExplain(context, request, LOG_IN_AGAIN);
  const url = new URL(request.url);
  const { filters, problem } = filtersOf(url.searchParams);
  try {
    const [result, usage, projects] = await Promise.all([
      listLibrary(user.id, { kind: filters.kind || null, q: filters.q, sort: filters.sort, page: filters.page, perPage: LIBRARY_PAGE_SIZE }),
      storageUsage(user.id),
      listProjects(user.id),
    ]);
    // Without JavaScript, Delete asks first (?delete={id}) and Rename opens its form (?rename={id}).
    const confirmId = url.searchParams.get("delete");
    const renameId = url.searchParams.get("rename");
    const confirming = confirmId ? await getLibraryFile(user.id, confirmId).catch(() => null) : null;
    return data(
      {
        files: result.files.map(libraryJson),
        total: result.total,
        pages: Math.max(1, Math.ceil(result.total / LIBRARY_PAGE_SIZE)),
        filters,
        problem,
        usage: { usedBytes: usage.usedBytes, quotaBytes: usage.quotaBytes },
        projects: projects.map((project) => ({ id: project.id, title: project.title })),
        confirming: confirming ? { id: confirming.id, name: confirming.name } : null,
        renaming: renameId,
        error: null as string | null,
      },
      { status: problem ? 400 : 200 },
    );
  } catch (error) {
    console.error("[library] load failed", error);
    return data(
      {
        files: [],
        total: 0,
        pages: 1,
        filters,
        problem,
        usage: { usedBytes: 0, quotaBytes: 0 },
        projects: [],
        confirming: null,
        renaming: null,
        error: LOAD_FAILED as string | null,
      },
      { status: 500 },
    );
  }
}

export interface LibraryAnswer {
  intent: "rename" | "delete" | "attach" | null;
  id?: string;
  ok: boolean;
  message: string;
  detail?: string;
}

const answer = (result: LibraryAnswer, status = 200) => data(result, { status });

/**
 * Posts to /library: rename, delete (plain forms ask first on ?delete={id}; the script asks with a
 * dialog and posts `confirmed`) and attach to a project. A plain form's success redirects back to the
 * same view with a toast; a fetcher's is answered with data; a failure is answered with the reason.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const user = await requireUserOrExplain(context, request, LOG_IN_AGAIN);
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return answer({ intent: null, ok: false, message: "Invalid form" }, 400);
  }
  const intent = text(form.get("intent"));
  const id = text(form.get("id"));
  const back = `/library${searchOf(filtersOf(new URLSearchParams(text(form.get("back")))).filters)}`;
  // Success says so as a toast either way: a fetcher's answer carries it too (the item it came from is gone by then).
  const done = (message: string) =>
    answersWithData(form) ? dataWithSuccess({ intent: intent as LibraryAnswer["intent"], id, ok: true, message }, message) : redirectWithSuccess(back, message);

  if (intent === "rename") {
    const name = text(form.get("name"));
    if (!name.trim()) return answer({ intent, id, ok: false, message: RENAME_FAILED, detail: "Name is required" }, 400);
    try {
      const renamed = await renameLibraryFile(user.id, id, name);
      return done(`✏️ Renamed to ${renamed.name}`);
    } catch (error) {
      const failure = screenFailure(error);
      return answer({ intent, id, ok: false, message: RENAME_FAILED, detail: failure.detail }, failure.status === 422 ? 400 : failure.status);
    }
  }
  if (intent === "delete") {
    if (!answersWithData(form) && form.get("confirmed") !== "1") {
      const separator = back.includes("?") ? "&" : "?";
      return redirect(`${back}${separator}${new URLSearchParams({ delete: id })}`);
    }
    try {
      await deleteLibraryFile(user.id, id);
    } catch (error) {
      const failure = screenFailure(error);
      return answersWithData(form) ? answer({ intent, id, ok: false, message: DELETE_FAILED, detail: failure.detail }, failure.status) : redirectWithError(back, DELETE_FAILED);
    }
    return done("🗑️ File deleted");
  }
  if (intent === "attach") {
    const projectId = text(form.get("project_id"));
    try {
      const file = await getLibraryFile(user.id, id);
      const project = projectId ? await setProjectSlot(user.id, projectId, slotOf(file.kind), file.id) : undefined;
      if (!project) return answer({ intent, id, ok: false, message: ATTACH_FAILED, detail: "Choose one of your projects" }, 400);
      return done(`📎 Attached to ${project.title}`);
    } catch (error) {
      const failure = screenFailure(error);
      return answer({ intent, id, ok: false, message: ATTACH_FAILED, detail: failure.detail }, failure.status);
    }
  }
  return answer({ intent: null, ok: false, message: "Unknown action" }, 400);
}

/** With JavaScript: a post whose request fails says the screen's text. */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const intent = (await request.clone().formData()).get("intent");
  return withFailureFallback(serverAction, (): LibraryAnswer => ({
    intent: intent === "rename" || intent === "attach" ? intent : "delete",
    ok: false,
    message: intent === "rename" ? RENAME_FAILED : intent === "attach" ? ATTACH_FAILED : DELETE_FAILED,
  }));
}

type LibraryFile = ReturnType<typeof libraryJson>;
type Loaded = Route.ComponentProps["loaderData"];

export default function Library({ loaderData, actionData }: Route.ComponentProps) {
  const { files, total, pages, filters, problem, usage, projects, confirming, renaming, error } = loaderData as Loaded;
  const back = searchOf(filters);
  const deleting = new Set(
    useFetchers()
      .map((fetcher) => (fetcher.formData?.get("intent") === "delete" ? fetcher.formData.get("id") : null))
      .filter((id): id is string => typeof id === "string"),
  );
  const navigation = useNavigation();
  const busy = navigation.state === "loading" && navigation.location?.pathname === "/library";
  const firstShown = total === 0 ? 0 : (filters.page - 1) * LIBRARY_PAGE_SIZE + 1;
  const lastShown = Math.min(total, filters.page * LIBRARY_PAGE_SIZE);

  return (
    <main className="page library-page" aria-busy={busy || undefined}>
      <MediaHeader title="🗂️ Library" />
      <FlashMessage />
      <StorageMeter usage={usage} />

      <Form method="get" action="/library" className="card library-filters" role="search" aria-label="Filter your library">
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

      {problem ? (
        <p className="message message-error" role="alert">
          {problem}
        </p>
      ) : null}
      {actionData && !actionData.ok ? <OutcomeMessage outcome={actionData} /> : null}

      {confirming ? (
        <Form method="post" action={`/library${back}`} className="card confirm-panel" role="alertdialog" aria-labelledby="confirm-delete">
          <p id="confirm-delete" className="confirm-question">
            {DELETE_CONFIRM} <span className="muted">({confirming.name})</span>
          </p>
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="confirmed" value="1" />
          <input type="hidden" name="id" value={confirming.id} />
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
      ) : null}

      {error ? (
        <p className="message message-error" role="alert">
          {error}
        </p>
      ) : null}
      <p className="muted library-count" role="status">
        {total === 0 ? (filters.kind || filters.q ? "No files match." : "No files yet: what you upload, record or generate appears here.") : `Files ${firstShown}–${lastShown} of ${total}`}
      </p>

      <ul className="library-grid" aria-label="Your files">
        {files.map((file) => (
          <LibraryItem key={file.id} file={file} hidden={deleting.has(file.id)} filters={filters} renaming={renaming === file.id} projects={projects} actionData={actionData?.id === file.id ? actionData : null} />
        ))}
      </ul>

      {pages > 1 ? (
        <nav className="library-pages" aria-label="Pages">
          {filters.page > 1 ? (
            <Link className="button button-small" rel="prev" to={`/library${searchOf({ ...filters, page: filters.page - 1 })}`}>
              ← Previous
            </Link>
          ) : null}
          <span>
            Page {filters.page} of {pages}
          </span>
          {filters.page < pages ? (
            <Link className="button button-small" rel="next" to={`/library${searchOf({ ...filters, page: filters.page + 1 })}`}>
              Next →
            </Link>
          ) : null}
        </nav>
      ) : null}
    </main>
  );
}

/** "2026-01-15 12:04 UTC": the same text on the server and in the browser. */
const dateText = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

function durationText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function Preview({ file }: { file: LibraryFile }) {
  const kind = file.kind as MediaKind;
  if (IMAGE_KINDS.includes(kind)) {
    return file.thumbnail_url ? <img className="library-thumb" src={file.thumbnail_url} alt="" loading="lazy" decoding="async" width={160} height={120} /> : null;
  }
  if (AUDIO_KINDS.includes(kind)) return <audio className="library-audio" src={file.url} controls preload="none" aria-label={`Play ${file.name}`} />;
  // No poster is made on the server: the first frame, from the file's metadata, stands in for one.
  return <video className="library-video" src={file.url} controls preload="metadata" aria-label={`Play ${file.name}`} />;
}

function ProvenanceDetails({ provenance }: { provenance: Provenance | null }) {
  if (!provenance) {
    return (
      <p className="library-provenance muted" data-testid="provenance">
        Provenance: unknown
      </p>
    );
  }
  const rows: [string, string | null][] = [
    ["Prompt", provenance.prompt],
    ["Style", provenance.style],
    ["Voice", provenance.voice],
    ["Provider", provenance.provider],
    ["Model", provenance.model],
    ["Source", provenance.source ? `${provenance.source.type}${provenance.source.id ? ` ${provenance.source.id}` : ""}` : null],
  ];
  return (
    <dl className="library-provenance" data-testid="provenance">
      {rows
        .filter((row): row is [string, string] => Boolean(row[1]))
        .map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

function LibraryItem({
  file,
  hidden,
  filters,
  renaming,
  projects,
  actionData,
}: {
  file: LibraryFile;
  hidden: boolean;
  filters: Filters;
  renaming: boolean;
  projects: { id: string; title: string }[];
  actionData: LibraryAnswer | null;
}) {
  const kind = file.kind as MediaKind;
  const fetcher = useFetcher<LibraryAnswer>({ key: `library-delete-${file.id}` });
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || reported.current === fetcher.data) return;
    reported.current = fetcher.data;
    if (!fetcher.data.ok) toast.error(fetcher.data.message);
  }, [fetcher.state, fetcher.data]);

  // With JavaScript, Delete asks with a dialog and posts through a fetcher (the item hides at once).
  const onDelete = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!window.confirm(DELETE_CONFIRM)) return;
    const form = new FormData(event.currentTarget);
    form.set("intent", "delete");
    form.set("enhanced", "1");
    fetcher.submit(form, { method: "post", action: `/library${back}` });
  };

  const facts = [
    KIND_LABELS[kind],
    formatSize(file.size),
    file.width && file.height ? `${file.width}×${file.height}` : null,
    file.duration_ms ? durationText(file.duration_ms) : null,
  ].filter(Boolean);
  const back = searchOf(filters);
  const renameLink = `/library${searchOf(filters, { rename: file.id })}`;

  return (
    <li className="card library-item" data-testid="library-item" data-kind={kind} hidden={hidden}>
      <div className="library-preview">
        <Preview file={file} />
      </div>
      <h2 className="library-name">{file.name}</h2>
      <p className="library-facts muted">
        {facts.join(" · ")} · <time dateTime={file.created_at}>{dateText(file.created_at)}</time>
      </p>
      {GENERATED_KINDS.includes(kind) ? <ProvenanceDetails provenance={file.provenance} /> : null}

      {renaming ? (
        <Form method="post" action={renameLink} className="library-rename">
          <input type="hidden" name="intent" value="rename" />
          <input type="hidden" name="id" value={file.id} />
          <input type="hidden" name="back" value={back} />
          <label>
            New name
            <input
              name="name"
              defaultValue={file.name}
              required
              maxLength={120}
              aria-invalid={actionData?.intent === "rename" && !actionData.ok ? true : undefined}
              aria-describedby={actionData?.intent === "rename" && !actionData.ok ? `rename-error-${file.id}` : undefined}
            />
          </label>
          {actionData?.intent === "rename" && !actionData.ok ? (
            <p className="field-error" id={`rename-error-${file.id}`} role="alert">
              {actionData.detail ?? actionData.message}
            </p>
          ) : null}
          <button type="submit" className="button button-small button-primary">
            Save name
          </button>
          <Link className="button button-small button-ghost" to={`/library${back}`}>
            Cancel
          </Link>
        </Form>
      ) : null}

      <div className="library-actions">
        <a className="button button-small" href={file.url} download={file.name}>
          ⬇️ Download
        </a>
        {!renaming ? (
          <Link className="button button-small" to={renameLink} aria-label={`Rename ${file.name}`}>
            ✏️ Rename
          </Link>
        ) : null}
        {IMAGE_KINDS.includes(kind) ? (
          <Link className="button button-small" to={`/drawing?${new URLSearchParams({ from: file.id })}`} aria-label={`Use ${file.name} as a sketch`}>
            🎨 Use as a sketch
          </Link>
        ) : null}
        <Form method="post" action={`/library${back}`} onSubmit={onDelete}>
          <input type="hidden" name="id" value={file.id} />
          <input type="hidden" name="back" value={back} />
          <button type="submit" name="intent" value="delete" className="button button-small button-ghost" aria-label={`Delete ${file.name}`}>
            🗑️ Delete
          </button>
        </Form>
      </div>
      {projects.length > 0 ? (
        <Form method="post" action={`/library${back}`} className="library-attach">
          <input type="hidden" name="intent" value="attach" />
          <input type="hidden" name="id" value={file.id} />
          <input type="hidden" name="back" value={back} />
          <label>
            <span className="visually-hidden">Project for {file.name}</span>
            <select name="project_id" defaultValue="">
              <option value="" disabled>
                Attach to a project…
              </option>
              {projects.map((project) => (
                <option key={project.id} value={project.id}>
                  {project.title}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button button-small">
            📎 Attach
          </button>
        </Form>
      ) : null}
    </li>
  );
}
