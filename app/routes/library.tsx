import { data, redirect, useFetchers, useNavigation } from "react-router";
import { withFailureFallback } from "~/browser/network-safe";
import { DeleteConfirmPanel, LibraryFilterForm, LibraryPages } from "~/components/media/library-filters";
import { LibraryItem } from "~/components/media/library-item";
import {
  ATTACH_FAILED,
  DELETE_FAILED,
  RENAME_FAILED,
  UPLOAD_FAILED,
  type LibraryAnswer,
} from "~/components/media/library-texts";
import { LibraryUpload } from "~/components/media/library-upload";
import { FlashMessage, OutcomeMessage } from "~/components/shell/flash-message";
import { MediaHeader } from "~/components/shell/page-header";
import { StorageMeter } from "~/components/shell/storage-meter";
import { SharePanelInPage } from "~/components/sharing/share-dialog";
import { UPLOAD_SUCCESSFUL } from "~/common/media/file-screen-kinds";
import { requireUserOrExplain } from "~/auth/auth.server";
import { screenTranslator } from "~/auth/screen-language.server";
import { formatNumber } from "~/common/i18n/formats";
import { msg } from "~/common/i18n/translate";
import { NAME_REQUIRED } from "~/common/media/media-names";
import { screenText } from "~/common/media/media-texts";
import { PLAIN } from "~/components/media/library-filters";
import { useT } from "~/components/ui/i18n";
import { screenFailure, text } from "~/lib/screens/forms.server";
import { isMultipart } from "~/lib/storage/upload.server";
import { readFormData } from "~/lib/http/bodies.server";
import { redirectWithSuccess } from "~/lib/screens/toast.server";
import { answerEnhanced, answersWithData } from "~/lib/screens/enhanced-answer.server";
import { deleteLibraryFile, libraryFilters, renameLibraryFile } from "~/models/media/library-files.server";
import { MEDIA_RULES } from "~/models/media/media-rules.server";
import { saveUploadToLibrary } from "~/services/media/media-upload.server";
import { attachToProject, libraryView } from "~/services/media/library-screen.server";
import { screenSharing, shareAction } from "~/services/sharing/share-screen.server";
import { LIBRARY_PAGE_SIZE, librarySearch, SAVABLE_KINDS } from "~/common/media/library-rules";
import libraryStylesheet from "~/styles/library.css?url";
import sharingStylesheet from "~/styles/sharing.css?url";
import type { Route } from "./+types/library";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: libraryStylesheet },
  { rel: "stylesheet", href: sharingStylesheet },
];

/** The screen's texts (the style of docs/screens.md#error-messages: short, what happened and what to do); the rest are in library-texts.ts. */
const LOAD_FAILED = msg("Could not load your library.");
const LOG_IN_AGAIN = msg("Please log in again.");

/** The upload card's limit: the kinds' largest (they differ; the server holds each to its own). */
function uploadLimits() {
  return { maxBytes: Math.max(...SAVABLE_KINDS.map((kind) => MEDIA_RULES[kind].maxBytes)) };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await requireUserOrExplain(context, request, LOG_IN_AGAIN);
  const url = new URL(request.url);
  const { filters, problem } = libraryFilters(url.searchParams);
  try {
    // Without JavaScript, Delete asks first (?delete={id}), Rename opens its form (?rename={id}) and Share its panel (?share={id}).
    const [view, sharing] = await Promise.all([
      libraryView(user.id, filters, url.searchParams.get("delete"), url.searchParams.get("cursor")),
      screenSharing(user.id, "file", url, request),
    ]);
    return data(
      {
        ...view,
        filters,
        problem,
        renaming: url.searchParams.get("rename"),
        upload: uploadLimits(),
        sharing,
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
        next: null,
        filters,
        problem,
        usage: { usedBytes: 0, quotaBytes: 0, textBytes: 0 },
        projects: [],
        confirming: null,
        renaming: null,
        upload: uploadLimits(),
        sharing: null,
        error: LOAD_FAILED as string | null,
      },
      { status: 500 },
    );
  }
}

const answer = (result: LibraryAnswer, status = 200) => data(result, { status });
/** A failed plain-form upload (JavaScript off): shown under the picker. */
type UploadAnswer = { intent: "upload"; ok: false; message: string; detail?: string | null };

/**
 * Posts to /library: rename, delete (plain forms ask first on ?delete={id}; the script asks with a
 * dialog and posts `confirmed`) and attach to a project. A plain form's success redirects back to the
 * same view with a toast; a fetcher's is answered with data; a failure is answered with the reason.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const user = await requireUserOrExplain(context, request, LOG_IN_AGAIN);
  const translator = await screenTranslator(context, request);
  const { t } = translator;
  // The upload form without JavaScript (with it the card calls POST /api/library/upload with a progress bar).
  if (isMultipart(request)) {
    try {
      await saveUploadToLibrary(user.id, request);
    } catch (error) {
      const failure = screenFailure(error);
      return data<UploadAnswer>(
        { intent: "upload", ok: false, message: t(UPLOAD_FAILED), detail: screenText(t, failure.detail) },
        { status: failure.status },
      );
    }
    return redirectWithSuccess("/library", t(UPLOAD_SUCCESSFUL));
  }
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return answer({ intent: null, ok: false, message: t("Invalid form") }, 400);
  }
  const intent = text(form.get("intent"));
  const id = text(form.get("id"));
  const back = `/library${librarySearch(libraryFilters(new URLSearchParams(text(form.get("back")))).filters)}`;
  // Success says so as a toast either way: a fetcher's answer carries it too (the item it came from is gone by then).
  const done = (message: string) =>
    answerEnhanced<LibraryAnswer>(form, {
      data: { intent: intent as LibraryAnswer["intent"], id, ok: true, message },
      redirectTo: back,
      toast: { type: "success", message, withData: true },
    });

  const shared = await shareAction(user.id, form, request, translator);
  if (shared) return shared;
  if (intent === "rename") {
    const name = text(form.get("name"));
    if (!name.trim())
      return answer({ intent, id, ok: false, message: t(RENAME_FAILED), detail: t(NAME_REQUIRED) }, 400);
    try {
      const renamed = await renameLibraryFile(user.id, id, name);
      return done(t("Renamed to {{name}}", { name: renamed.name }));
    } catch (error) {
      const failure = screenFailure(error);
      return answer(
        { intent, id, ok: false, message: t(RENAME_FAILED), detail: screenText(t, failure.detail) },
        failure.status === 422 ? 400 : failure.status,
      );
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
      return answerEnhanced<LibraryAnswer>(form, {
        data: { intent, id, ok: false, message: t(DELETE_FAILED), detail: screenText(t, failure.detail) },
        init: { status: failure.status },
        redirectTo: back,
        toast: { type: "error", message: t(DELETE_FAILED) },
      });
    }
    return done(t("🗑️ File deleted"));
  }
  if (intent === "attach") {
    try {
      const project = await attachToProject(user.id, id, text(form.get("project_id")));
      if (!project)
        return answer(
          { intent, id, ok: false, message: t(ATTACH_FAILED), detail: t("Choose one of your projects") },
          400,
        );
      // With JavaScript the card itself says so (components/media/library-attach.tsx), where the person is looking.
      const message = t("Attached to {{title}}", { title: project.title });
      return answerEnhanced<LibraryAnswer>(form, {
        data: { intent, id, ok: true, message },
        redirectTo: back,
        toast: { type: "success", message },
      });
    } catch (error) {
      const failure = screenFailure(error);
      return answer(
        { intent, id, ok: false, message: t(ATTACH_FAILED), detail: screenText(t, failure.detail) },
        failure.status,
      );
    }
  }
  return answer({ intent: null, ok: false, message: t("Unknown action") }, 400);
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

export default function Library({ loaderData, actionData }: Route.ComponentProps) {
  const { files, total, pages, next, filters, problem, usage, projects, confirming, renaming, upload, sharing, error } =
    loaderData;
  const uploadAnswer = actionData?.intent === "upload" ? actionData : null;
  const libraryAnswer = actionData?.intent === "upload" || actionData?.intent === "share" ? undefined : actionData;
  const back = librarySearch(filters);
  const deleting = new Set(
    useFetchers()
      .map((fetcher) => (fetcher.formData?.get("intent") === "delete" ? fetcher.formData.get("id") : null))
      .filter((id): id is string => typeof id === "string"),
  );
  const { t, language } = useT();
  const navigation = useNavigation();
  const busy = navigation.state === "loading" && navigation.location?.pathname === "/library";
  const firstShown = total === 0 ? 0 : (filters.page - 1) * LIBRARY_PAGE_SIZE + 1;
  const lastShown = Math.min(total, filters.page * LIBRARY_PAGE_SIZE);

  return (
    <main className="page library-page" aria-busy={busy || undefined}>
      <title>{t("Library · Creative AI Studio")}</title>
      <meta name="description" content={t("Every file you made or uploaded, with how it was made.")} />
      <MediaHeader title={t("Library")} icon="library" />
      <FlashMessage />
      <StorageMeter usage={usage} />
      <LibraryUpload maxBytes={upload.maxBytes} answer={uploadAnswer} />
      <LibraryFilterForm filters={filters} />

      {problem ? (
        <p className="message message-error" role="alert">
          {screenText(t, problem)}
        </p>
      ) : null}
      {libraryAnswer && !libraryAnswer.ok ? (
        <OutcomeMessage
          outcome={{
            ...libraryAnswer,
            message: t(libraryAnswer.message),
            detail: screenText(t, libraryAnswer.detail),
          }}
        />
      ) : null}
      {confirming ? <DeleteConfirmPanel file={confirming} back={back} /> : null}
      <SharePanelInPage
        sharing={sharing}
        screen={`/library${back}`}
        titleOf={(id) => files.find((file) => file.id === id)?.title}
      />

      {error ? (
        <p className="message message-error" role="alert">
          {t(error)}
        </p>
      ) : null}
      <p className="muted library-count" role="status">
        {total === 0
          ? filters.kind || filters.q
            ? t("No files match.")
            : t("No files yet: what you upload, record or generate appears here.")
          : t("Files {{first}}–{{last}} of {{total}}", {
              count: total,
              first: formatNumber(language, firstShown, PLAIN),
              last: formatNumber(language, lastShown, PLAIN),
              total: formatNumber(language, total, PLAIN),
            })}
      </p>

      <ul className="library-grid" aria-label={t("Your files")}>
        {files.map((file) => (
          <LibraryItem
            key={file.id}
            file={file}
            hidden={deleting.has(file.id)}
            filters={filters}
            renaming={renaming === file.id}
            projects={projects}
            sharing={sharing?.options ?? null}
            actionData={libraryAnswer?.id === file.id ? libraryAnswer : null}
          />
        ))}
      </ul>

      <LibraryPages filters={filters} pages={pages} next={next} />
    </main>
  );
}
