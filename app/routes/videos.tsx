import { data, redirect } from "react-router";
import { withFailureFallback } from "~/browser/network-safe";
import { MediaLibrary, VIDEO_LIBRARY, type LibraryAnswer } from "~/components/media-library";
import { GENERATED_DELETE_FAILED, GENERATED_INTENT, GeneratedVideos, type GeneratedAnswer } from "~/components/generated-videos";
import { requireUser } from "~/auth/auth.server";
import { answersWithData, screenFailure, text } from "~/lib/forms.server";
import { formatBytes, isMultipart, UPLOAD_MISSING_FILE } from "~/lib/upload.server";
import { readFormData } from "~/lib/http/bodies.server";
import { deleteMedia, listMedia, renameMedia } from "~/models/media.server";
import { MEDIA_RULES } from "~/models/media-rules.server";
import { storageUsage } from "~/models/library-files.server";
import { deleteGeneratedVideo, listGeneratedVideos, mediaUrl } from "~/models/ai-media.server";
import { dataWithSuccess, redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { receiveMediaUpload } from "~/services/media-upload.server";
import libraryStylesheet from "~/styles/library.css?url";
import generatedStylesheet from "~/styles/generated-media.css?url";
import type { Route } from "./+types/videos";

export const meta: Route.MetaFunction = () => [{ title: "Video Hub · Creative AI Studio" }];

/** SPEC §2, §5 and §8 texts of the Video hub (in VIDEO_LIBRARY). */
const { texts } = VIDEO_LIBRARY;

/** The storage meter's look (it lives with the library's). */
export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: libraryStylesheet },
  { rel: "stylesheet", href: generatedStylesheet },
];

/** Said (as a toast) when a generated video is deleted; SPEC has no text for it. */
const GENERATED_DELETED = "Generated video deleted.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const [files, usage, generated] = await Promise.all([listMedia(user.id, "video"), storageUsage(user.id), listGeneratedVideos(user.id)]);
  const search = new URL(request.url).searchParams;
  return {
    // The storage quota's use, as a meter under the upload form (issue 15).
    usage: { usedBytes: usage.usedBytes, quotaBytes: usage.quotaBytes, textBytes: usage.textBytes },
    videos: files.map((file) => ({ name: file.name, size: file.size, updatedAt: file.updatedAt })),
    maxBytes: MEDIA_RULES.video.maxBytes,
    maxLabel: formatBytes(MEDIA_RULES.video.maxBytes),
    // Without JavaScript, "Rename" is a link to ?rename={name}: that row shows its form.
    renaming: search.get("rename"),
    // The person's AI video clips (issue 26), titled by their prompts; ?generated={id} marks one ("Open in Video Hub").
    generated: generated.map((file) => ({
      id: file.id,
      title: file.provenance?.prompt?.trim() || file.name,
      name: file.name,
      url: mediaUrl(file.id),
      size: file.size,
      createdAt: file.createdAt,
    })),
    highlighted: search.get("generated"),
  };
}

const answer = (result: LibraryAnswer, status = 200) => data(result, { status });

/**
 * Posts to /videos: a multipart upload (JavaScript off; with it the upload widget calls
 * POST /api/videos/upload with a progress bar) streams through the same model code; rename (a blank
 * name is ignored) and delete (plain forms, or the screen's fetchers). SPEC has no success texts for
 * videos: an upload says the voices' one (every upload confirms alike), a plain rename or delete
 * redirects back and the list shows the change; a fetcher's gets data.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  if (isMultipart(request)) {
    try {
      await receiveMediaUpload(user.id, "video", request);
    } catch (error) {
      const failure = screenFailure(error);
      if (failure.code === UPLOAD_MISSING_FILE) return answer({ intent: "upload", ok: false, message: texts.selectFirst! }, 422);
      return answer({ intent: "upload", ok: false, message: texts.uploadFailed, detail: failure.detail }, failure.status);
    }
    return redirectWithSuccess("/videos", texts.uploadOk);
  }

  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return answer({ intent: null, ok: false, message: "Invalid form" }, 400);
  }
  const intent = form.get("intent");
  if (intent === GENERATED_INTENT) return deleteGenerated(user.id, form);
  const name = text(form.get("name"));
  const done = (newName?: string) =>
    answersWithData(form) ? answer({ intent: intent as "rename" | "delete", name, newName, ok: true, message: "" }) : redirect("/videos");
  if (intent === "rename") {
    const newName = text(form.get("new_name"));
    // SPEC §5: a blank name is ignored.
    if (!newName.trim()) return done();
    let renamed: string;
    try {
      renamed = (await renameMedia(user.id, "video", name, newName)).name;
    } catch (error) {
      const failure = screenFailure(error);
      return answer({ intent, name, ok: false, message: texts.renameFailed, detail: failure.detail }, failure.status);
    }
    return done(renamed);
  }
  if (intent === "delete") {
    if (!(await deleteMedia(user.id, "video", name))) return answer({ intent, name, ok: false, message: texts.deleteFailed }, 404);
    return done();
  }
  return answer({ intent: null, ok: false, message: "Unknown action" }, 400);
}

/**
 * Deletes one of the person's generated videos (issue 26): the row and the file, scoped to them. A plain
 * form's post redirects back with a toast; a fetcher's gets data (the success's toast rides along).
 */
async function deleteGenerated(userId: string, form: FormData) {
  const id = text(form.get("id"));
  const deleted = id !== "" && (await deleteGeneratedVideo(userId, id));
  if (answersWithData(form)) {
    return deleted
      ? dataWithSuccess<GeneratedAnswer>({ intent: GENERATED_INTENT, id, ok: true, message: GENERATED_DELETED }, GENERATED_DELETED)
      : data<GeneratedAnswer>({ intent: GENERATED_INTENT, id, ok: false, message: GENERATED_DELETE_FAILED }, { status: 404 });
  }
  return deleted ? redirectWithSuccess("/videos", GENERATED_DELETED) : redirectWithError("/videos", GENERATED_DELETE_FAILED);
}

/** With JavaScript: a rename or delete whose request fails says SPEC's text. */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const form = await request.clone().formData();
  const intent = form.get("intent");
  if (intent === GENERATED_INTENT) {
    const id = String(form.get("id") ?? "");
    return withFailureFallback(serverAction, (): GeneratedAnswer => ({ intent: GENERATED_INTENT, id, ok: false, message: GENERATED_DELETE_FAILED }));
  }
  return withFailureFallback(serverAction, (): LibraryAnswer =>
    intent === "rename" ? { intent, ok: false, message: texts.renameFailed } : { intent: "delete", ok: false, message: texts.deleteFailed },
  );
}

export default function Videos({ loaderData, actionData }: Route.ComponentProps) {
  // The generated section's answers are its own (its fetchers read them); the upload card reads the rest.
  const libraryAnswer = actionData && "intent" in actionData && actionData.intent !== GENERATED_INTENT ? (actionData as LibraryAnswer) : undefined;
  return (
    <>
      <MediaLibrary
        kind={VIDEO_LIBRARY}
        files={loaderData.videos}
        maxBytes={loaderData.maxBytes}
        maxLabel={loaderData.maxLabel}
        renaming={loaderData.renaming}
        actionData={libraryAnswer}
        usage={loaderData.usage}
      />
      <GeneratedVideos videos={loaderData.generated} highlighted={loaderData.highlighted} />
    </>
  );
}
