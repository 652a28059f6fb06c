import { Suspense, useCallback, useEffect, useRef, useState } from "react";
import {
  Await,
  data,
  Form,
  Link,
  redirect,
  useAsyncError,
  useBlocker,
  useNavigate,
  useSearchParams,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import { ApiError, apiFetch, apiJson, errorDetail, leavingForLogin } from "~/browser/api-client";
import { clearStashedDraft, readStashedDraft, stashDraft } from "~/browser/draft-stash";
import { withFailureFallback } from "~/browser/network-safe";
import { FlashFallback } from "~/components/content-list";
import { requireUser } from "~/auth/auth.server";
import { safeRedirectPath } from "~/shared/safe-redirect";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { readFormData } from "~/lib/http.server";
import {
  BODY_MAX,
  contentUpdateSchema,
  deleteContent,
  getContent,
  setPinned,
  TITLE_MAX,
  updateContent,
  type ContentItem,
} from "~/models/content.server";
import type { Route } from "./+types/content";

export const meta: Route.MetaFunction = () => [{ title: "Content · Creative AI Studio" }];

/** SPEC §2, §4, §8 and §9 texts and timing. */
const LOAD_FAILED = "⚠️ Failed to load content";
const SAVED_AUTO = "💾 Saved";
const SAVED_MANUALLY = "✅ Saved manually";
const SAVE_FAILED = "❌ Save failed";
const PIN_FAILED = "Could not update pin";
const DELETE_FAILED = "Failed to delete content";
const CONFLICT_TEXT =
  "⚠️ This content was changed somewhere else (another tab or device) since you opened it. Your text is kept here but was not saved.";
const AUTOSAVE_MS = 3000;
const DRAFT_RESTORED = "↩️ Your unsaved changes were restored.";
/** Browsers refuse keepalive requests with bodies over 64 KiB. */
const KEEPALIVE_MAX_BYTES = 60_000;

type FieldErrors = Partial<Record<"title" | "body", string>>;
interface Limits {
  title: number;
  body: number;
}
interface LoadResult {
  item: ContentItem | null;
  limits: Limits;
}
interface SaveFailure {
  ok: false;
  intent: "save";
  message: string;
  conflict: boolean;
  fieldErrors: FieldErrors;
  values: { title: string; body: string };
  /** The stored version after a conflict: saving the form again replaces it on purpose. */
  current: ContentItem | null;
}

const limits: Limits = { title: TITLE_MAX, body: BODY_MAX };

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  try {
    const item = await getContent(user.id, params.id);
    if (!item) return data<LoadResult>({ item: null, limits }, { status: 404 });
    return data<LoadResult>({ item, limits });
  } catch (error) {
    console.error("[content] load failed", error);
    return data<LoadResult>({ item: null, limits }, { status: 500 });
  }
}

/**
 * On client navigation the screen appears at once with "Loading..." (SPEC §2) and fills in when the
 * server answers; the first page load is rendered by the server with the item in it.
 */
export function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  return { deferred: serverLoader() as Promise<LoadResult> };
}

/** Switching between view and edit (?edit=1) keeps the loaded item and the person's draft. */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) return false;
  return defaultShouldRevalidate;
}

const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : "");

/**
 * Form posts to /content/{id}: `save` (the editor without JavaScript), and `pin` / `delete` from the
 * dashboard list (plain forms are redirected back; fetchers, marked by `enhanced`, get data).
 */
export async function action({ context, request, params }: Route.ActionArgs) {
  const user = requireUser(context, request);
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return data({ ok: false as const, intent: null, message: "Invalid form" }, { status: 400 });
  }
  const intent = form.get("intent");
  const enhanced = form.get("enhanced") === "1";
  const back = safeRedirectPath(form.get("redirectTo"), "/dashboard");

  // SPEC §8: delete asks first. Fetchers asked in the browser; a plain form is shown the question here.
  if (intent === "delete" && !enhanced && form.get("confirmed") !== "1") {
    const query = new URLSearchParams({ confirm: "delete" });
    if (back !== "/dashboard") query.set("redirectTo", back);
    return redirect(`/content/${encodeURIComponent(params.id)}?${query}`);
  }
  if (intent === "pin" || intent === "delete") {
    const failed = intent === "pin" ? PIN_FAILED : DELETE_FAILED;
    let done = false;
    let status = 404;
    try {
      const pinned = form.get("pinned");
      if (intent === "pin" && pinned !== "true" && pinned !== "false") status = 400;
      else if (intent === "pin") done = !!(await setPinned(user.id, params.id, pinned === "true"));
      else done = await deleteContent(user.id, params.id);
    } catch (error) {
      console.error(`[content] ${intent} failed`, error);
      status = 500;
    }
    if (enhanced) return data({ ok: done, intent, message: done ? undefined : failed }, { status: done ? 200 : status });
    if (!done) return redirectWithError(back, failed);
    return intent === "delete" ? redirectWithSuccess(back, "🗑️ Content deleted") : redirect(back);
  }

  if (intent === "save") {
    const values = { title: text(form.get("title")), body: text(form.get("body")) };
    const failure = (status: number, extra: Partial<SaveFailure> = {}) =>
      data<SaveFailure>(
        { ok: false, intent: "save", message: SAVE_FAILED, conflict: false, fieldErrors: {}, values, current: null, ...extra },
        { status },
      );
    const parsed = contentUpdateSchema.safeParse({ ...values, updated_at: text(form.get("updated_at")) || undefined });
    if (!parsed.success) {
      const fieldErrors: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === "title" || field === "body") fieldErrors[field] ??= issue.message;
      }
      return failure(400, { fieldErrors });
    }
    const { updated_at, ...input } = parsed.data;
    try {
      const result = await updateContent(user.id, params.id, input, { expectedUpdatedAt: updated_at });
      if (result.ok) return redirectWithSuccess(`/content/${encodeURIComponent(params.id)}`, SAVED_MANUALLY);
      if (result.reason === "conflict") {
        return failure(409, { conflict: true, message: `${CONFLICT_TEXT} Save again to replace it with your version.`, current: result.current });
      }
      return failure(404);
    } catch (error) {
      console.error("[content] save failed", error);
      return failure(500);
    }
  }
  return data({ ok: false as const, intent: null, message: "Unknown action" }, { status: 400 });
}

/** With JavaScript: a pin or delete whose request fails still answers with SPEC's text (and the list rolls back). */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const intent = (await request.clone().formData()).get("intent");
  return withFailureFallback(serverAction, () => ({
    ok: false as const,
    intent: intent === "pin" || intent === "delete" ? intent : null,
    message: intent === "pin" ? PIN_FAILED : DELETE_FAILED,
  }));
}

export default function ContentScreen({ loaderData, actionData }: Route.ComponentProps) {
  const loaded: LoadResult | Promise<LoadResult> = "deferred" in loaderData ? loaderData.deferred : loaderData;
  const saveFailure = actionData && "intent" in actionData && actionData.intent === "save" ? (actionData as SaveFailure) : null;
  return (
    <main className="page page-narrow content-page">
      <Suspense fallback={<Loading />}>
        <Await resolve={loaded} errorElement={<LoadFailed />}>
          {(result: LoadResult) =>
            result.item ? (
              <ContentEditor key={result.item.id} item={result.item} limits={result.limits} saveFailure={saveFailure} />
            ) : (
              <LoadFailed />
            )
          }
        </Await>
      </Suspense>
    </main>
  );
}

function Loading() {
  return (
    <p className="muted content-loading" role="status">
      Loading...
    </p>
  );
}

function LoadFailed() {
  // A deferred load that was answered with a redirect (the session ended) goes where it points.
  const error = useAsyncError();
  useEffect(() => {
    if (error instanceof Response && error.status >= 300 && error.status < 400) {
      const location = error.headers.get("Location");
      if (location) window.location.assign(location);
    }
  }, [error]);
  return (
    <>
      <p className="message message-error" role="alert">
        {LOAD_FAILED}
      </p>
      <p>
        <Link className="button" to="/dashboard">
          Back
        </Link>
      </p>
    </>
  );
}

type Status = { tone: "success" | "error" | "info"; text: string } | null;
type SaveKind = "auto" | "manual" | "force" | "leave";
type SaveOutcome = "saved" | "clean" | "invalid" | "conflict" | "failed";
interface Draft {
  title: string;
  body: string;
}

const sameAsSaved = (draft: Draft, saved: ContentItem) => draft.title.trim() === saved.title && draft.body === saved.body;

async function sendSave(id: string, kind: SaveKind, payload: Record<string, unknown>): Promise<ContentItem> {
  const body = JSON.stringify(payload);
  const manual = kind === "manual" || kind === "force";
  const response = await apiFetch(`/api/content/${encodeURIComponent(id)}${manual ? "" : "/autosave"}`, {
    method: manual ? "PUT" : "POST",
    headers: { "Content-Type": "application/json" },
    body,
    // A save started while the page is being left must outlive the page (the limit is in bytes, not characters).
    keepalive: kind === "leave" && new TextEncoder().encode(body).length < KEEPALIVE_MAX_BYTES,
  });
  if (!response.ok) {
    throw new ApiError(response.status, await errorDetail(response));
  }
  return (await response.json()) as ContentItem;
}

/**
 * View and edit of one item. Edit mode is `?edit=1`, so Edit, Save and Cancel also work as plain links
 * and a plain form without JavaScript. With JavaScript, Save and the autosave (3 s after the last
 * change) go through the /api calls; every save carries the version it was based on and saves run one
 * after another, so an older autosave can never overwrite a newer save.
 */
function ContentEditor({ item, limits, saveFailure }: { item: ContentItem; limits: Limits; saveFailure: SaveFailure | null }) {
  const [searchParams] = useSearchParams();
  const editing = searchParams.get("edit") === "1";
  const navigate = useNavigate();
  const viewUrl = `/content/${encodeURIComponent(item.id)}`;

  const [saved, setSavedState] = useState<ContentItem>(saveFailure?.current ?? item);
  const [draft, setDraftState] = useState<Draft>(saveFailure?.values ?? { title: item.title, body: item.body });
  const [status, setStatus] = useState<Status>(
    saveFailure ? { tone: "error", text: saveFailure.conflict ? saveFailure.message : SAVE_FAILED } : null,
  );
  const [conflict, setConflict] = useState(saveFailure?.conflict ?? false);
  const [saving, setSaving] = useState(false);
  const fieldErrors = saveFailure?.fieldErrors ?? {};

  // Refs give the save queue and the page-leave handlers the latest values.
  const savedRef = useRef(saved);
  const draftRef = useRef(draft);
  const editingRef = useRef(editing);
  editingRef.current = editing;
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const savesInFlight = useRef(0);
  /** After a conflict: the version saved elsewhere, which Cancel switches to. */
  const newerVersion = useRef<ContentItem | null>(null);
  const setSaved = (next: ContentItem) => {
    savedRef.current = next;
    setSavedState(next);
  };
  const setDraft = (next: Draft) => {
    draftRef.current = next;
    setDraftState(next);
  };
  const dirty = editing && !sameAsSaved(draft, saved);

  const save = useCallback(
    (kind: SaveKind): Promise<SaveOutcome> => {
      const run = async (): Promise<SaveOutcome> => {
        const current = draftRef.current;
        const base = savedRef.current;
        if (kind !== "manual" && kind !== "force" && sameAsSaved(current, base)) return "clean";
        if (!current.title.trim()) {
          setStatus({ tone: "error", text: "⚠️ Title is required" });
          return "invalid";
        }
        if (kind === "manual" || kind === "force") setSaving(true);
        savesInFlight.current++;
        try {
          const payload: Record<string, unknown> = { title: current.title, body: current.body };
          // A leave save racing our own save in flight would be refused as stale by that save's new version.
          const racingOwnSave = kind === "leave" && savesInFlight.current > 1;
          if (kind !== "force" && !racingOwnSave) payload.updated_at = base.updated_at;
          const next = await sendSave(item.id, kind, payload);
          savedRef.current = next;
          setSavedState(next);
          setConflict(false);
          setStatus({ tone: "success", text: kind === "manual" || kind === "force" ? SAVED_MANUALLY : SAVED_AUTO });
          return "saved";
        } catch (error) {
          if (error instanceof ApiError && error.status === 409) {
            setConflict(true);
            setStatus({ tone: "error", text: CONFLICT_TEXT });
            void apiJson<ContentItem>(`/api/content/${encodeURIComponent(item.id)}`)
              .then((latest) => (newerVersion.current = latest))
              .catch(() => {});
            return "conflict";
          }
          setStatus({ tone: "error", text: SAVE_FAILED });
          return "failed";
        } finally {
          savesInFlight.current--;
          setSaving(false);
        }
      };
      // Saves run one after another, except the one sent while the page is being left: it cannot wait.
      if (kind === "leave") return run();
      const next = queue.current.then(run, run);
      queue.current = next.catch(() => undefined);
      return next;
    },
    [item.id],
  );

  // Back in the editor with a kept draft: bring it back (read before the effect below clears a clean editor's stash). If the item changed since the draft began,
  // saving it would overwrite that change unseen, so it comes back as a conflict for the person to decide.
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || !editing) return;
    restored.current = true;
    const stash = readStashedDraft(item.id);
    if (!stash || sameAsSaved(stash, savedRef.current)) return;
    setDraft({ title: stash.title, body: stash.body });
    if (stash.base === savedRef.current.updated_at) {
      setStatus({ tone: "info", text: DRAFT_RESTORED });
    } else {
      setConflict(true);
      setStatus({ tone: "error", text: `${DRAFT_RESTORED} ${CONFLICT_TEXT}` });
    }
  }, [editing, item.id]);

  // Unsaved text is also kept in this tab (sessionStorage) until it is saved or dropped, so a session
  // that ends mid-edit (the trip to /login and back), a reload or a crashed page cannot lose it.
  useEffect(() => {
    if (dirty) stashDraft(item.id, { ...draft, base: saved.updated_at });
    else clearStashedDraft(item.id);
  }, [draft, dirty, saved.updated_at, item.id]);

  // Autosave 3 s after the last change while editing (paused after a conflict until the person decides).
  useEffect(() => {
    if (!dirty || conflict) return;
    const timer = setTimeout(() => void save("auto"), AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [draft, dirty, conflict, save]);

  // Leaving the page (closing, reloading, hiding the tab) with unsaved changes: save them and let the browser warn.
  useEffect(() => {
    const isDirty = () => editingRef.current && !sameAsSaved(draftRef.current, savedRef.current);
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      // On the way to /login (the session ended) the draft is kept in the tab and comes back: no prompt.
      if (!isDirty() || leavingForLogin()) return;
      void save("leave");
      event.preventDefault();
    };
    const onHidden = () => {
      if (document.visibilityState === "hidden" && isDirty()) void save("leave");
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("visibilitychange", onHidden);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("visibilitychange", onHidden);
    };
  }, [save]);

  // Leaving edit mode in the app with unsaved changes (another screen, the browser's Back): save first;
  // if that fails, ask. Cancel is the explicit way to drop them (it resets the draft before it navigates).
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (!editingRef.current || sameAsSaved(draftRef.current, savedRef.current)) return false;
    const staysInEditor = nextLocation.pathname === currentLocation.pathname && new URLSearchParams(nextLocation.search).get("edit") === "1";
    return !staysInEditor;
  });
  const blockerRef = useRef(blocker);
  blockerRef.current = blocker;
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    void save("auto").then((outcome) => {
      const current = blockerRef.current;
      if (current.state !== "blocked") return;
      if (outcome === "saved" || outcome === "clean") current.proceed();
      else if (window.confirm("Your changes could not be saved. Leave anyway and lose them?")) current.proceed();
      else current.reset();
    });
  }, [blocker.state, save]);

  const startEditing = () => {
    setDraft({ title: savedRef.current.title, body: savedRef.current.body });
    setStatus(null);
    setConflict(false);
  };
  const cancelEditing = () => {
    // After a conflict, Cancel drops this draft for the version saved elsewhere, not the stale one.
    if (newerVersion.current) {
      setSaved(newerVersion.current);
      newerVersion.current = null;
    }
    setDraft({ title: savedRef.current.title, body: savedRef.current.body });
    setConflict(false);
  };
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void save("manual").then((outcome) => {
      if (outcome === "saved") navigate(viewUrl, { preventScrollReset: true });
    });
  };

  const statusLine = status ? (
    <p
      className={`message ${status.tone === "error" ? "message-error" : "message-success"} content-status`}
      role={status.tone === "error" ? "alert" : "status"}
    >
      {status.text}
    </p>
  ) : null;

  if (!editing) {
    return (
      <article className="content-view">
        <FlashFallback />
        {searchParams.get("confirm") === "delete" ? <DeleteConfirmation id={item.id} redirectTo={searchParams.get("redirectTo")} /> : null}
        <h1 className="content-view-title">{saved.title}</h1>
        {saved.body ? <div className="card content-body">{saved.body}</div> : <p className="muted content-body-empty">No content yet.</p>}
        {statusLine}
        <div className="content-actions">
          <Link className="button button-primary" to={`${viewUrl}?edit=1`} onClick={startEditing} preventScrollReset>
            Edit
          </Link>
          <Link className="button button-ghost" to="/dashboard">
            Back
          </Link>
        </div>
      </article>
    );
  }

  return (
    <article className="content-edit">
      <h1>Edit Content</h1>
      <Form method="post" action={`${viewUrl}?edit=1`} className="card form" aria-label="Edit content" onSubmit={onSubmit}>
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="updated_at" value={saved.updated_at} />
        <label>
          Title
          <input
            name="title"
            required
            maxLength={limits.title}
            value={draft.title}
            onChange={(event) => setDraft({ ...draftRef.current, title: event.target.value })}
            aria-invalid={!!fieldErrors.title}
          />
          {fieldErrors.title ? <span className="field-error">{fieldErrors.title}</span> : null}
        </label>
        <label>
          Body
          <textarea
            name="body"
            rows={14}
            maxLength={limits.body}
            value={draft.body}
            onChange={(event) => setDraft({ ...draftRef.current, body: event.target.value })}
            aria-invalid={!!fieldErrors.body}
          />
          {fieldErrors.body ? <span className="field-error">{fieldErrors.body}</span> : null}
        </label>
        {statusLine}
        {conflict ? (
          <p className="content-conflict">
            <button type="button" className="button button-danger" onClick={() => void save("force")}>
              Save my version anyway
            </button>{" "}
            <span className="muted">or reload the page to see the other version (your text here would be lost).</span>
          </p>
        ) : null}
        <div className="content-actions">
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? "Saving..." : "Save"}
          </button>
          <Link className="button button-ghost" to={viewUrl} onClick={cancelEditing} preventScrollReset>
            Cancel
          </Link>
        </div>
      </Form>
    </article>
  );
}

/** Without JavaScript, the dashboard's Delete lands here first: SPEC §8 "Delete this content?". */
function DeleteConfirmation({ id, redirectTo }: { id: string; redirectTo: string | null }) {
  const back = safeRedirectPath(redirectTo, "/dashboard");
  return (
    <Form method="post" action={`/content/${encodeURIComponent(id)}`} className="card confirm-panel" role="alertdialog" aria-labelledby="confirm-delete">
      <p id="confirm-delete" className="confirm-question">
        Delete this content?
      </p>
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="confirmed" value="1" />
      {back !== "/dashboard" ? <input type="hidden" name="redirectTo" value={back} /> : null}
      <div className="content-actions">
        <button type="submit" className="button button-danger">
          Delete
        </button>
        <Link className="button button-ghost" to={back}>
          Cancel
        </Link>
      </div>
    </Form>
  );
}
