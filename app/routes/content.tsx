import { Suspense } from "react";
import { Await, data, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { withFailureFallback } from "~/browser/network-safe";
import { ContentEditor, ContentLoadFailed, ContentLoading } from "~/components/content/content-editor";
import { DELETE_FAILED_TEXT, PIN_FAILED_TEXT } from "~/components/dashboard/dashboard-list";
import { contentShare } from "~/components/content/content-share";
import { DASHBOARD_TOAST_MS, toast } from "~/components/shell/toasts";
import {
  CONFLICT_TEXT,
  SAVE_AGAIN_TEXT,
  SAVE_FAILED,
  SAVED_MANUALLY,
  type ContentFieldErrors,
  type EditorLimits,
  type SaveFailure,
} from "~/components/content/content-texts";
import { requireUser } from "~/auth/auth.server";
import { screenTranslator } from "~/auth/screen-language.server";
import { pageTranslator, useT } from "~/components/ui/i18n";
import { msg, type Translator } from "~/common/i18n/translate";
import { formIntent, pinnedBy } from "~/common/content/pin-form";
import { safeRedirectPath } from "~/common/safe-redirect";
import { redirectWithSuccess } from "~/lib/screens/toast.server";
import { answerEnhanced, answersWithData } from "~/lib/screens/enhanced-answer.server";
import { justChanged } from "~/lib/screens/just-changed.server";
import { DomainError } from "~/lib/domain-error";
import { fieldErrors, text } from "~/lib/screens/forms.server";
import { readFormData } from "~/lib/http/bodies.server";
import { BODY_MAX, contentUpdateSchema, sayContentFieldErrors, TITLE_MAX } from "~/models/content/content-input.server";
import { restoreEditStart } from "~/services/content/history-screen.server";
import { RESTORE_EDIT_START } from "~/components/content/use-edit-start-restore";
import { deleteContent, getContent, setPinned, updateContent, type ContentItem } from "~/models/content/content.server";
import { screenSharing, shareAction } from "~/services/sharing/share-screen.server";
import type { ScreenSharing } from "~/common/sharing/share-link-view";
import editingStylesheet from "~/styles/editing.css?url";
import sharingStylesheet from "~/styles/sharing.css?url";
import type { Route } from "./+types/content";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: editingStylesheet },
  { rel: "stylesheet", href: sharingStylesheet },
];

const PIN_FAILED = PIN_FAILED_TEXT;
const DELETE_FAILED = DELETE_FAILED_TEXT;
const INVALID_FORM = msg("Invalid form");
const UNKNOWN_ACTION = msg("Unknown action");
const CONTENT_DELETED = msg("Content deleted");

interface LoadResult {
  item: ContentItem | null;
  limits: EditorLimits;
  /** Share's choices and its panel in the page (?share={id}, JavaScript off); null when sharing is off. */
  sharing?: ScreenSharing | null;
}

const limits: EditorLimits = { title: TITLE_MAX, body: BODY_MAX };

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  try {
    const item = await getContent(user.id, params.id);
    if (!item) return data<LoadResult>({ item: null, limits }, { status: 404 });
    const sharing = await screenSharing(user.id, "content", new URL(request.url), request);
    return data<LoadResult>({ item, limits, sharing });
  } catch (error) {
    console.error("[content] load failed", error);
    return data<LoadResult>({ item: null, limits }, { status: 500 });
  }
}

/**
 * On client navigation the screen appears at once with "Loading..." (docs/screens.md#screens-and-routes) and fills in when the
 * server answers; the first page load is rendered by the server with the item in it.
 */
export function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  return { deferred: serverLoader() as Promise<LoadResult> };
}

/** Switching between view and edit (?edit=1) keeps the loaded item and the person's draft. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  formData,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) return false;
  // The editor takes the restored item from the answer, as it does a save's.
  if (formData?.get("intent") === RESTORE_EDIT_START) return false;
  return defaultShouldRevalidate;
}

/**
 * Form posts to /content/{id}, one function per `intent` (INTENTS): `save` (the editor without
 * JavaScript), `restore-edit-start` (the editor's Cancel after an autosave, "go back"), and `pin` /
 * `unpin` / `delete` from the dashboard list (plain forms are redirected back; the list's fetchers get
 * data, see ~/lib/screens/enhanced-answer.server.ts); `share` is the share panel's (shareAction).
 */
export async function action({ context, request, params }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const say = await screenTranslator(context, request);
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return data({ ok: false as const, intent: null, message: say.t(INVALID_FORM) }, { status: 400 });
  }
  const shared = await shareAction(user.id, form, request, say);
  if (shared) return shared;
  const intent = formIntent(form);
  if (intent === null || !Object.hasOwn(INTENTS, intent))
    return data({ ok: false as const, intent: null, message: say.t(UNKNOWN_ACTION) }, { status: 400 });
  return INTENTS[intent as keyof typeof INTENTS]({ userId: user.id, id: params.id, form, request, say });
}

/** What each intent of the action is given: the signed-in person, the piece and the form. */
interface IntentArgs {
  userId: string;
  id: string;
  form: FormData;
  request: Request;
  /** The screen's language, for the toasts and the field errors (the save's status text stays English: the editor says it). */
  say: Translator;
}

const viewUrlOf = (id: string) => `/content/${encodeURIComponent(id)}`;

/** The dashboard row's pin, unpin and delete. */
async function listChange({ userId, id, form, request, say }: IntentArgs, intent: "pin" | "unpin" | "delete") {
  const back = safeRedirectPath(form.get("redirectTo"), "/dashboard");
  // docs/screens.md#error-messages: delete asks first. Fetchers asked in the browser; a plain form is shown the question here.
  if (intent === "delete" && !answersWithData(form) && form.get("confirmed") !== "1") {
    const query = new URLSearchParams({ confirm: "delete" });
    if (back !== "/dashboard") query.set("redirectTo", back);
    return redirect(`${viewUrlOf(id)}?${query}`);
  }
  const failed = say.t(intent === "delete" ? DELETE_FAILED : PIN_FAILED);
  let done = false;
  let status = 404;
  try {
    const pinned = pinnedBy(form);
    const explicit = form.get("pinned");
    if (intent !== "delete" && explicit !== null && explicit !== "true" && explicit !== "false") status = 400;
    else if (pinned !== null) done = !!(await setPinned(userId, id, pinned));
    else done = await deleteContent(userId, id);
  } catch (error) {
    console.error(`[content] ${intent} failed`, error);
    status = 500;
  }
  const answer = {
    data: { ok: done, intent: intent === "delete" ? intent : "pin", message: done ? undefined : failed },
    init: { status: done ? 200 : status },
    redirectTo: back,
  };
  if (!done) return answerEnhanced(form, { ...answer, toast: { type: "error", message: failed } });
  if (intent === "delete")
    return answerEnhanced(form, { ...answer, toast: { type: "success", message: say.t(CONTENT_DELETED) } });
  // Back on the dashboard at the row that was pinned, not at the top (docs/screens.md#after-create-and-a-pin).
  const atTheRow = !answersWithData(form) && new URL(back, request.url).pathname === "/dashboard";
  const headers = atTheRow ? { "Set-Cookie": await justChanged.set({ id, part: "pin" }) } : undefined;
  return answerEnhanced(form, { ...answer, redirectInit: { headers } });
}

/** Cancel's "go back" after an autosave: the version kept when the edit began, restored. */
async function restoreStart({ userId, id, form, say }: IntentArgs) {
  const intent = RESTORE_EDIT_START;
  try {
    const restored = await restoreEditStart(userId, id, text(form.get("editing_since")), say);
    if (!restored) return data({ ok: false as const, intent, found: false }, { status: 404 });
    return answerEnhanced(form, {
      data: { ok: true as const, intent, ...restored },
      redirectTo: viewUrlOf(id),
      toast: { type: "success", message: restored.message },
    });
  } catch (error) {
    if (!(error instanceof DomainError) || error.status >= 500) console.error("[content] restore failed", error);
    const status = error instanceof DomainError ? error.status : 500;
    return data({ ok: false as const, intent, found: status !== 404 }, { status });
  }
}

/** The editor's Save without JavaScript: the view with a toast, or the form again with what went wrong. */
async function saveEdit({ userId, id, form, say }: IntentArgs) {
  const values = { title: text(form.get("title")), body: text(form.get("body")) };
  const failure = (status: number, extra: Partial<SaveFailure> = {}) =>
    data<SaveFailure>(
      {
        ok: false,
        intent: "save",
        message: SAVE_FAILED,
        conflict: false,
        fieldErrors: {},
        values,
        current: null,
        ...extra,
      },
      { status },
    );
  const parsed = contentUpdateSchema.safeParse({ ...values, updated_at: text(form.get("updated_at")) || undefined });
  if (!parsed.success)
    return failure(400, {
      fieldErrors: sayContentFieldErrors(
        say,
        fieldErrors(parsed.error, ["title", "body"]),
      ) satisfies ContentFieldErrors,
    });
  const { updated_at, ...input } = parsed.data;
  try {
    const result = await updateContent(userId, id, input, { expectedUpdatedAt: updated_at });
    if (result.ok) return redirectWithSuccess(viewUrlOf(id), say.t(SAVED_MANUALLY));
    if (result.reason === "conflict") {
      return failure(409, {
        conflict: true,
        message: `${CONFLICT_TEXT} ${SAVE_AGAIN_TEXT}`,
        current: result.current,
      });
    }
    return failure(404);
  } catch (error) {
    // The model may refuse with a DomainError (409 carries the stored version as data.current).
    if (error instanceof DomainError && error.status === 409) {
      const current = (error.data?.current ?? null) as ContentItem | null;
      return failure(409, { conflict: true, message: `${CONFLICT_TEXT} ${SAVE_AGAIN_TEXT}`, current });
    }
    // A refusal with a reason (413 past the storage quota) says the text in docs/screens.md#error-messages and the reason.
    if (error instanceof DomainError && error.status === 413)
      return failure(413, { message: `${SAVE_FAILED} ${error.detail}` });
    if (error instanceof DomainError && error.status < 500) return failure(error.status);
    console.error("[content] save failed", error);
    return failure(500);
  }
}

/** The action's intents, by the name a form posts (formIntent); any other is "Unknown action" (400). */
const INTENTS = {
  pin: (args: IntentArgs) => listChange(args, "pin"),
  unpin: (args: IntentArgs) => listChange(args, "unpin"),
  delete: (args: IntentArgs) => listChange(args, "delete"),
  [RESTORE_EDIT_START]: restoreStart,
  save: saveEdit,
};

/**
 * With JavaScript: a pin or delete whose request fails still answers with the text in docs/screens.md#error-messages (and the list
 * rolls back), and a failed one is said in a toast (the dashboard's 3 s), here, once per answer.
 */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const intent = formIntent(await request.clone().formData());
  const result = await withFailureFallback(serverAction, () => ({
    ok: false as const,
    intent: intent === "pin" || intent === "unpin" ? "pin" : intent === "delete" ? intent : null,
    message: intent === "delete" ? DELETE_FAILED : PIN_FAILED,
  }));
  const listIntent = intent === "pin" || intent === "unpin" || intent === "delete";
  if (listIntent && result && typeof result === "object" && "ok" in result && result.ok === false) {
    // The pin's or delete's own answer says it in the screen's language; the fallback (no answer: offline)
    // is English, a catalogue key the page's translator says in the screen's language.
    const answered = "message" in result && result.intent !== null && typeof result.message === "string";
    const { t } = pageTranslator();
    toast.error(t(answered ? (result.message as string) : intent === "delete" ? DELETE_FAILED : PIN_FAILED), {
      autoClose: DASHBOARD_TOAST_MS,
    });
  }
  return result;
}

export default function ContentScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const loaded: LoadResult | Promise<LoadResult> = "deferred" in loaderData ? loaderData.deferred : loaderData;
  const saveFailure =
    actionData && "intent" in actionData && actionData.intent === "save" ? (actionData as SaveFailure) : null;
  return (
    <main className="page page-narrow content-page">
      <title>{t("Content · Creative AI Studio")}</title>
      <Suspense fallback={<ContentLoading />}>
        <Await resolve={loaded} errorElement={<ContentLoadFailed />}>
          {(result: LoadResult) =>
            result.item ? (
              <ContentEditor
                key={result.item.id}
                item={result.item}
                limits={result.limits}
                saveFailure={saveFailure}
                share={contentShare(result)}
              />
            ) : (
              <ContentLoadFailed />
            )
          }
        </Await>
      </Suspense>
    </main>
  );
}
