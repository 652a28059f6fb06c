import { data, redirect } from "react-router";
import { askFirst } from "~/lib/screens/ask-first.server";
import { answersWithData } from "~/lib/screens/enhanced-answer.server";
import { screenFailure, text } from "~/lib/screens/forms.server";
import { readFormData } from "~/lib/http/bodies.server";
import { redirectWithSuccess } from "~/lib/screens/toast.server";
import { isMultipart, UPLOAD_MISSING_FILE } from "~/lib/storage/upload.server";
import { storageUsage } from "~/models/media/library-files.server";
import { deleteMedia, listMedia, renameMedia } from "~/models/media/media.server";
import { MEDIA_RULES } from "~/models/media/media-rules.server";
import { receiveMediaUpload } from "~/services/media/media-upload.server";
import type { Translator } from "~/common/i18n/translate";
import { screenText } from "~/common/media/media-texts";
import type { FileAnswer, FileScreenData, FileScreenKind } from "~/common/media/file-screen-kinds";

/**
 * The one loader and action behind the two file screens, /voices and /videos. Their route modules
 * call these with the signed-in person and their kind (~/common/media/file-screen-kinds, which holds every text).
 */
export async function fileScreenLoader(
  kind: FileScreenKind,
  userId: string,
  request: Request,
): Promise<FileScreenData> {
  const [files, usage] = await Promise.all([listMedia(userId, kind.kind), storageUsage(userId)]);
  const maxBytes = MEDIA_RULES[kind.kind].maxBytes;
  const params = new URL(request.url).searchParams;
  return {
    usage: { usedBytes: usage.usedBytes, quotaBytes: usage.quotaBytes, textBytes: usage.textBytes },
    files: files.map((file) => ({ name: file.name, size: file.size, updatedAt: file.updatedAt })),
    maxBytes,
    renaming: params.get("rename"),
    // Without JavaScript, Delete asks on ?delete={name} first (docs/screens.md#dialogs).
    confirming: files.some((file) => file.name === params.get("delete")) ? params.get("delete") : null,
  };
}

const answer = (result: FileAnswer, status = 200) => data(result, { status });

/** A screen's own intents besides upload, rename and delete (the Video Hub's generated clips). */
export type MoreIntents = Record<
  string,
  (userId: string, form: FormData) => Promise<Response | ReturnType<typeof data>>
>;

/**
 * Posts to a file screen: a multipart upload (JavaScript off; with it the upload widget calls the
 * API with a progress bar) streams through the same model code; rename and delete (plain forms, or
 * the screen's fetchers). A plain form's success redirects back (with the kind's text as a flash
 * message when it has one); a fetcher's success is answered with data; a failure with the reason.
 * Every text is said with `t`, the screen's translator (the route's screenTranslator).
 */
export async function fileScreenAction(
  kind: FileScreenKind,
  userId: string,
  request: Request,
  t: Translator["t"],
  more: MoreIntents = {},
) {
  const { texts } = kind;
  if (isMultipart(request)) {
    try {
      await receiveMediaUpload(userId, kind.kind, request);
    } catch (error) {
      const failure = screenFailure(error);
      if (texts.selectFirst && failure.code === UPLOAD_MISSING_FILE)
        return answer({ intent: "upload", ok: false, message: t(texts.selectFirst) }, 422);
      return answer(
        { intent: "upload", ok: false, message: t(texts.uploadFailedPlain), detail: screenText(t, failure.detail) },
        failure.status,
      );
    }
    return redirectWithSuccess(kind.path, t(texts.uploadOk));
  }

  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return answer({ intent: null, ok: false, message: t("Invalid form") }, 400);
  }
  const intent = form.get("intent");
  const own = typeof intent === "string" && Object.hasOwn(more, intent) ? more[intent] : undefined;
  if (own) return own(userId, form);
  const name = text(form.get("name"));
  const done = (text: string | undefined, newName?: string) => {
    const message = text && t(text);
    if (answersWithData(form))
      return answer({ intent: intent as "rename" | "delete", name, newName, ok: true, message: message ?? "" });
    return message ? redirectWithSuccess(kind.path, message) : redirect(kind.path);
  };
  if (intent === "rename") {
    const newName = text(form.get("new_name"));
    // A blank name: Voices refuse it, the Video Hub ignores it.
    if (!newName.trim())
      return texts.nameRequired
        ? answer({ intent, name, ok: false, message: t(texts.nameRequired) }, 400)
        : done(undefined);
    let renamed: string;
    try {
      renamed = (await renameMedia(userId, kind.kind, name, newName)).name;
    } catch (error) {
      const failure = screenFailure(error);
      return answer(
        { intent, name, ok: false, message: t(texts.renameFailed), detail: screenText(t, failure.detail) },
        failure.status,
      );
    }
    return done(texts.renamed, renamed);
  }
  if (intent === "delete") {
    const ask = askFirst(form, kind.path, "delete", name);
    if (ask) return ask;
    if (!(await deleteMedia(userId, kind.kind, name)))
      return answer({ intent, name, ok: false, message: t(texts.deleteFailed) }, 404);
    return done(texts.deleted);
  }
  return answer({ intent: null, ok: false, message: t("Unknown action") }, 400);
}
