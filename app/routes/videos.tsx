import { withFailureFallback } from "~/browser/network-safe";
import { ConfirmPanel } from "~/components/ui/confirm-panel";
import { fileFailureFallback } from "~/components/media/file-actions";
import {
  GENERATED_DELETE_FAILED,
  GENERATED_INTENT,
  GeneratedVideos,
  type GeneratedAnswer,
} from "~/components/video-jobs/generated-videos";
import { VideoList } from "~/components/media/video-list";
import { requireUser } from "~/auth/auth.server";
import { screenTranslator } from "~/auth/screen-language.server";
import { msg, type Translator } from "~/common/i18n/translate";
import { useT } from "~/components/ui/i18n";
import { askFirst } from "~/lib/screens/ask-first.server";
import { text } from "~/lib/screens/forms.server";
import { answerEnhanced } from "~/lib/screens/enhanced-answer.server";
import { deleteGeneratedVideo, listGeneratedVideos, mediaUrl } from "~/models/media/ai-media.server";
import { fileScreenAction, fileScreenLoader } from "~/services/media/file-screen-action.server";
import { deleteQuestion } from "~/common/delete-question";
import { VIDEO_FILES } from "~/common/media/file-screen-kinds";
import libraryStylesheet from "~/styles/library.css?url";
import generatedStylesheet from "~/styles/generated-media.css?url";
import type { Route } from "./+types/videos";

/** The storage meter's look (it lives with the library's). */
export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: libraryStylesheet },
  { rel: "stylesheet", href: generatedStylesheet },
];

/** Said (as a toast) when a generated video is deleted; the product has no text of its own for it. */
const GENERATED_DELETED = msg("Generated video deleted.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const [files, generated] = await Promise.all([
    fileScreenLoader(VIDEO_FILES, user.id, request),
    listGeneratedVideos(user.id),
  ]);
  return {
    files,
    // The person's AI video clips, titled by their prompts; ?generated={id} marks one ("Open in Video Hub").
    generated: generated.map((file) => ({
      id: file.id,
      title: file.provenance?.prompt?.trim() || file.name,
      name: file.name,
      url: mediaUrl(file.id),
      size: file.size,
      createdAt: file.createdAt,
    })),
    highlighted: new URL(request.url).searchParams.get("generated"),
    // Without JavaScript, a generated clip's Delete asks on ?delete-generated={id} first.
    confirmingGenerated: new URL(request.url).searchParams.get(GENERATED_INTENT),
  };
}

/** Upload (a plain form), rename and delete: the file screens' one action; and the generated clips' delete. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const { t } = await screenTranslator(context, request);
  return fileScreenAction(VIDEO_FILES, user.id, request, t, {
    [GENERATED_INTENT]: (userId, form) => deleteGenerated(userId, form, t),
  });
}

/**
 * Deletes one of the person's generated videos: the row and the file, scoped to them. A plain form's
 * post redirects back with a toast; a fetcher's gets data (the success's toast rides along).
 */
async function deleteGenerated(userId: string, form: FormData, t: Translator["t"]) {
  const id = text(form.get("id"));
  const ask = askFirst(form, "/videos", GENERATED_INTENT, id);
  if (ask) return ask;
  const deleted = id !== "" && (await deleteGeneratedVideo(userId, id));
  if (deleted)
    return answerEnhanced<GeneratedAnswer>(form, {
      data: { intent: GENERATED_INTENT, id, ok: true, message: t(GENERATED_DELETED) },
      redirectTo: "/videos",
      toast: { type: "success", message: t(GENERATED_DELETED), withData: true },
    });
  return answerEnhanced<GeneratedAnswer>(form, {
    data: { intent: GENERATED_INTENT, id, ok: false, message: t(GENERATED_DELETE_FAILED) },
    init: { status: 404 },
    redirectTo: "/videos",
    toast: { type: "error", message: t(GENERATED_DELETE_FAILED) },
  });
}

/** With JavaScript: a rename or delete whose request fails says its failure text. */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const form = await request.clone().formData();
  if (form.get("intent") === GENERATED_INTENT) {
    const id = String(form.get("id") ?? "");
    return withFailureFallback(serverAction, (): GeneratedAnswer => ({
      intent: GENERATED_INTENT,
      id,
      ok: false,
      message: GENERATED_DELETE_FAILED,
    }));
  }
  return fileFailureFallback(VIDEO_FILES, request, serverAction);
}

export default function Videos({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  // The generated section's answers are its own (its fetchers read them); the upload card reads the rest.
  const fileAnswer =
    actionData && "intent" in actionData && actionData.intent !== GENERATED_INTENT ? actionData : undefined;
  const asked = loaderData.generated.find((video) => video.id === loaderData.confirmingGenerated);
  const confirm = asked ? (
    <ConfirmPanel
      question={deleteQuestion(asked.title, t)}
      confirmLabel={t("Delete")}
      action="/videos"
      fields={{ intent: GENERATED_INTENT, id: asked.id }}
      cancelTo="/videos"
    />
  ) : undefined;
  return (
    <>
      <title>{t("Video Hub · Creative AI Studio")}</title>
      <VideoList data={loaderData.files} actionData={fileAnswer} confirm={confirm}>
        <GeneratedVideos videos={loaderData.generated} highlighted={loaderData.highlighted} />
      </VideoList>
    </>
  );
}
