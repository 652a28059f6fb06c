import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import { withFailureFallback } from "~/browser/network-safe";
import { SLOT_ATTACHED, SLOT_REMOVED } from "~/components/projects/project-texts";
import {
  EDIT_PROJECT,
  EditorHeader,
  LOAD_FAILED,
  NEW_PROJECT,
  ProjectEditor,
  SAVE_FAILED,
  SAVED,
  TITLE_REQUIRED,
  type AttachAnswer,
  type Choices,
  type EditorValues,
  type SaveAnswer,
} from "~/components/projects/project-editor";
import { assistantIsOffline } from "~/services/assistant/assistant.server";
import { imageProviderConfigured } from "~/services/media/generation.server";
import { requireUserOrExplain } from "~/auth/auth.server";
import { screenTranslator } from "~/auth/screen-language.server";
import { msg } from "~/common/i18n/translate";
import { useT } from "~/components/ui/i18n";
import { DomainError } from "~/lib/domain-error";
import { fieldErrors, text } from "~/lib/screens/forms.server";
import { answerEnhanced } from "~/lib/screens/enhanced-answer.server";
import { readFormData } from "~/lib/http/bodies.server";
import {
  createProject,
  getProject,
  projectMediaChoices,
  setProjectSlot,
  updateProject,
} from "~/models/projects/project.server";
import { projectAttachSchema, projectCreateSchema, projectScreenText } from "~/models/projects/project-input.server";
import { PROJECT_DESCRIPTION_MAX, PROJECT_TITLE_MAX } from "~/common/project-rules";
import projectStylesheet from "~/styles/project-editor.css?url";
import type { Route } from "./+types/project";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: projectStylesheet }];

/** docs/screens.md#states-and-transitions text (the rest are in ~/components/projects/project-editor). */
const LOG_IN_AGAIN = msg("Please log in again.");

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { t } = await screenTranslator(context, request);
  const user = await requireUserOrExplain(context, request, t(LOG_IN_AGAIN));
  const isNew = params.id === "new";
  const generators = { imageConfigured: imageProviderConfigured(), assistantOffline: assistantIsOffline() };
  const limits = { title: PROJECT_TITLE_MAX, description: PROJECT_DESCRIPTION_MAX };
  try {
    const [project, choices] = await Promise.all([
      isNew ? null : getProject(user.id, params.id),
      projectMediaChoices(user.id),
    ]);
    if (!isNew && !project)
      return data({ isNew, project: null, choices, generators, limits, loadError: LOAD_FAILED }, { status: 404 });
    return { isNew, project: project ?? null, choices, generators, limits, loadError: null };
  } catch (error) {
    console.error("[project] load failed", error);
    const choices: Choices = { voice: [], music: [], video: [], image: [] };
    return data({ isNew, project: null, choices, generators, limits, loadError: LOAD_FAILED }, { status: 500 });
  }
}

/**
 * `save` (the editor's form, with or without JavaScript): create or update, then /projects with a
 * toast; invalid -> 400 with the message in the page. `attach` (the generators, JavaScript only):
 * one slot of an existing project changed at once.
 */
export async function action({ context, request, params }: Route.ActionArgs) {
  const translator = await screenTranslator(context, request);
  const { t } = translator;
  const user = await requireUserOrExplain(context, request, t(LOG_IN_AGAIN));
  const isNew = params.id === "new";
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return data<SaveAnswer>({ ok: false, intent: "save", message: SAVE_FAILED }, { status: 400 });
  }
  const editorUrl = `/project/${encodeURIComponent(params.id)}`;

  if (form.get("intent") === "attach") {
    const parsed = projectAttachSchema.safeParse({ slot: form.get("slot"), value: text(form.get("value")) });
    let answer: AttachAnswer;
    let status = 200;
    if (isNew || !parsed.success) {
      answer = { ok: false, intent: "attach", message: SAVE_FAILED };
      status = 400;
    } else {
      const { slot, value } = parsed.data;
      try {
        const project = await setProjectSlot(user.id, params.id, slot, value);
        answer = project
          ? {
              ok: true,
              intent: "attach",
              slot,
              message: value ? SLOT_ATTACHED[slot] : SLOT_REMOVED[slot],
            }
          : { ok: false, intent: "attach", slot, message: LOAD_FAILED };
        if (!project) status = 404;
      } catch (error) {
        // A refused attachment (a file the person does not have): the model's DomainError says why.
        if (!(error instanceof DomainError)) throw error;
        answer = { ok: false, intent: "attach", slot, message: projectScreenText(translator, error.detail) };
        status = error.status;
      }
    }
    return answerEnhanced(form, {
      data: answer,
      init: { status },
      redirectTo: editorUrl,
      toast: { type: answer.ok ? "success" : "error", message: t(answer.message) },
    });
  }

  const screenDetail = (detail: string | undefined) => detail && projectScreenText(translator, detail);
  const values: EditorValues = {
    title: text(form.get("title")),
    description: text(form.get("description")),
    selection: {
      voice: text(form.get("voice_file")),
      music: text(form.get("music_file")),
      video: text(form.get("video_file")),
      image: text(form.get("image_file")),
    },
  };
  const parsed = projectCreateSchema.safeParse({
    title: values.title,
    description: values.description,
    voice_file: values.selection.voice,
    music_file: values.selection.music,
    video_file: values.selection.video,
    image_file: values.selection.image,
  });
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error, [
      "title",
      "description",
      "voice_file",
      "music_file",
      "video_file",
      "image_file",
    ]);
    // A blank title (the schema's minimum of one character) is "Title required" (docs/screens.md); any other refusal is a failed save.
    const titleMissing = parsed.error.issues.some((issue) => issue.path[0] === "title" && issue.code === "too_small");
    const { title: titleError, ...others } = errors;
    return data<SaveAnswer>(
      {
        ok: false,
        intent: "save",
        message: titleMissing ? TITLE_REQUIRED : SAVE_FAILED,
        titleError: titleError && projectScreenText(translator, titleError),
        detail: screenDetail(titleError && !titleMissing ? titleError : Object.values(others)[0]),
        values,
      },
      { status: 400 },
    );
  }
  try {
    const project = isNew
      ? await createProject(user.id, parsed.data)
      : await updateProject(user.id, params.id, parsed.data);
    if (!project)
      return data<SaveAnswer>(
        { ok: false, intent: "save", message: SAVE_FAILED, detail: LOAD_FAILED, values },
        { status: 404 },
      );
    return answerEnhanced<SaveAnswer>(form, {
      data: { ok: true, intent: "save", message: SAVED, projectId: project.id },
      redirectTo: "/projects",
      toast: { type: "success", message: t(SAVED) },
    });
  } catch (error) {
    if (error instanceof DomainError && error.status < 500) {
      return data<SaveAnswer>(
        {
          ok: false,
          intent: "save",
          message: SAVE_FAILED,
          detail: projectScreenText(translator, error.detail),
          values,
        },
        { status: error.status },
      );
    }
    console.error("[project] save failed", error);
    return data<SaveAnswer>({ ok: false, intent: "save", message: SAVE_FAILED, values }, { status: 500 });
  }
}

/** With JavaScript: a save or attach whose request fails says the text in docs/screens.md#error-messages and keeps the editor as it is. */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const intent = (await request.clone().formData()).get("intent");
  return withFailureFallback(serverAction, (): SaveAnswer | AttachAnswer =>
    intent === "attach"
      ? { ok: false, intent: "attach", message: SAVE_FAILED }
      : { ok: false, intent: "save", message: SAVE_FAILED },
  );
}

export default function ProjectEditorScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { isNew, project, loadError } = loaderData;
  const { t } = useT();
  if (loadError) {
    return (
      <main className="page page-narrow project-editor-page">
        <EditorHeader title={isNew ? NEW_PROJECT : EDIT_PROJECT} />
        <p className="message message-error" role="alert">
          {t(loadError)}
        </p>
      </main>
    );
  }
  const saveAnswer = actionData?.intent === "save" ? actionData : null;
  return <ProjectEditor key={project?.id ?? "new"} data={loaderData} saveAnswer={saveAnswer} />;
}

/** The editor's own fetchers answer with what the screen already shows; reloading its data would reset the form. */
export function shouldRevalidate({ formAction, currentUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formAction === currentUrl.pathname) return false;
  return defaultShouldRevalidate;
}
