import { data } from "react-router";
import { withFailureFallback } from "~/browser/network-safe";
import { MediaLibrary, VOICE_LIBRARY, type LibraryAnswer } from "~/components/media-library";
import { requireUser } from "~/auth/auth.server";
import { answersWithData, screenFailure, text } from "~/lib/forms.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { isMultipart, formatBytes } from "~/lib/upload.server";
import { readFormData } from "~/lib/http/bodies.server";
import { deleteMedia, listMedia, renameMedia } from "~/models/media.server";
import { MEDIA_RULES } from "~/models/media-rules.server";
import { storageUsage } from "~/models/library-files.server";
import { receiveMediaUpload } from "~/services/media-upload.server";
import libraryStylesheet from "~/styles/library.css?url";
import type { Route } from "./+types/voices";

export const meta: Route.MetaFunction = () => [{ title: "Voices · Creative AI Studio" }];

/** SPEC §2, §5, §8 and §9 texts of the Voices screen (the rest are in VOICE_LIBRARY). */
const { texts } = VOICE_LIBRARY;
const UPLOAD_FAILED_PLAIN = "Upload failed";

/** The storage meter's look (it lives with the library's). */
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: libraryStylesheet }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const [files, usage] = await Promise.all([listMedia(user.id, "voice"), storageUsage(user.id)]);
  return {
    // The storage quota's use, as a meter under the upload form (issue 15).
    usage: { usedBytes: usage.usedBytes, quotaBytes: usage.quotaBytes, textBytes: usage.textBytes },
    files: files.map((file) => ({ name: file.name, size: file.size })),
    maxBytes: MEDIA_RULES.voice.maxBytes,
    maxLabel: formatBytes(MEDIA_RULES.voice.maxBytes),
    // Without JavaScript, "Rename" is a link to ?rename={name}: that row shows its form.
    renaming: new URL(request.url).searchParams.get("rename"),
  };
}

const answer = (result: LibraryAnswer, status = 200) => data(result, { status });

/**
 * Posts to /voices: a multipart upload (JavaScript off; with it the upload widget calls
 * POST /api/voice/upload with a progress bar) streams through the same model code; rename and delete
 * (plain forms, or the screen's fetchers). A plain form's success redirects back with a flash
 * message; a fetcher's success is answered with data; a failure is answered with the reason.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  if (isMultipart(request)) {
    try {
      await receiveMediaUpload(user.id, "voice", request);
    } catch (error) {
      const failure = screenFailure(error);
      return answer({ intent: "upload", ok: false, message: UPLOAD_FAILED_PLAIN, detail: failure.detail }, failure.status);
    }
    return redirectWithSuccess("/voices", texts.uploadOk);
  }

  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return answer({ intent: null, ok: false, message: "Invalid form" }, 400);
  }
  const intent = form.get("intent");
  const name = text(form.get("name"));
  const done = (message: string, newName?: string) =>
    answersWithData(form) ? answer({ intent: intent as "rename" | "delete", name, newName, ok: true, message }) : redirectWithSuccess("/voices", message);
  if (intent === "rename") {
    const newName = text(form.get("new_name"));
    if (!newName.trim()) return answer({ intent, name, ok: false, message: texts.nameRequired! }, 400);
    let renamed: string;
    try {
      renamed = (await renameMedia(user.id, "voice", name, newName)).name;
    } catch (error) {
      const failure = screenFailure(error);
      return answer({ intent, name, ok: false, message: texts.renameFailed, detail: failure.detail }, failure.status);
    }
    return done(texts.renamed!, renamed);
  }
  if (intent === "delete") {
    if (!(await deleteMedia(user.id, "voice", name))) return answer({ intent, name, ok: false, message: texts.deleteFailed }, 404);
    return done(texts.deleted!);
  }
  return answer({ intent: null, ok: false, message: "Unknown action" }, 400);
}

/** With JavaScript: a rename or delete whose request fails says SPEC's text. */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const intent = (await request.clone().formData()).get("intent");
  return withFailureFallback(serverAction, (): LibraryAnswer =>
    intent === "rename" ? { intent, ok: false, message: texts.renameFailed } : { intent: "delete", ok: false, message: texts.deleteFailed },
  );
}

export default function Voices({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <MediaLibrary
      kind={VOICE_LIBRARY}
      files={loaderData.files}
      maxBytes={loaderData.maxBytes}
      maxLabel={loaderData.maxLabel}
      renaming={loaderData.renaming}
      actionData={actionData}
      usage={loaderData.usage}
    />
  );
}
