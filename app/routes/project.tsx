import { useEffect, useRef, useState } from "react";
import { data, Form, Link, useFetcher, useNavigate, type ShouldRevalidateFunctionArgs } from "react-router";
import { withFailureFallback } from "~/browser/network-safe";
import { ProjectGenerators, type GeneratedChoice } from "~/components/project-generators";
import { ProjectMediaIcons, slotLabel } from "~/components/project-media-icons";
import { FlashMessage, MediaHeader } from "~/components/media-ui";
import { toast } from "~/components/toasts";
import { useHydrated } from "~/components/use-hydrated";
import { assistantIsOffline } from "~/services/assistant.server";
import { imageProviderConfigured } from "~/services/generation.server";
import { requireUserOrExplain } from "~/auth/auth.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { readFormData } from "~/lib/http.server";
import {
  createProject,
  getProject,
  projectAttachSchema,
  projectCreateSchema,
  projectMediaChoices,
  ProjectMediaError,
  setProjectSlot,
  updateProject,
  type MediaChoice,
  type Project,
} from "~/models/project.server";
import { musicTrack, PROJECT_DESCRIPTION_MAX, PROJECT_SLOTS, PROJECT_TITLE_MAX, type ProjectSlot } from "~/shared/project-rules";
import type { Route } from "./+types/project";

export const meta: Route.MetaFunction = ({ params }) => [
  { title: `${params.id === "new" ? "New Project" : "Edit Project"} · Creative AI Studio` },
];

/** SPEC §4, §5, §8 and §9 texts and timing of the project editor. */
const TITLE_REQUIRED = "Title required";
const SAVED = "Project saved successfully!";
const SAVE_FAILED = "Failed to save project";
const LOAD_FAILED = "Failed to load project";
const LOG_IN_AGAIN = "Please log in again.";
const SAVED_REDIRECT_MS = 800;

type Selection = Record<ProjectSlot, string>;
type Choices = Record<ProjectSlot, MediaChoice[]>;
interface EditorValues {
  title: string;
  description: string;
  selection: Selection;
}
interface SaveAnswer {
  ok: boolean;
  intent: "save";
  message: string;
  detail?: string;
  titleError?: string;
  values?: EditorValues;
  projectId?: string;
}
interface AttachAnswer {
  ok: boolean;
  intent: "attach";
  slot?: ProjectSlot;
  message: string;
}

const EMPTY_SELECTION: Selection = { voice: "", music: "", video: "", image: "" };

function selectionOf(project: Project | null): Selection {
  if (!project) return EMPTY_SELECTION;
  return {
    voice: project.media.voice?.id ?? "",
    music: project.media.music?.id ?? "",
    video: project.media.video?.id ?? "",
    image: project.media.image?.id ?? "",
  };
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const user = await requireUserOrExplain(context, request, LOG_IN_AGAIN);
  const isNew = params.id === "new";
  const generators = { imageConfigured: imageProviderConfigured(), assistantOffline: assistantIsOffline() };
  const limits = { title: PROJECT_TITLE_MAX, description: PROJECT_DESCRIPTION_MAX };
  try {
    const [project, choices] = await Promise.all([isNew ? null : getProject(user.id, params.id), projectMediaChoices(user.id)]);
    if (!isNew && !project) return data({ isNew, project: null, choices, generators, limits, loadError: LOAD_FAILED }, { status: 404 });
    return { isNew, project: project ?? null, choices, generators, limits, loadError: null };
  } catch (error) {
    console.error("[project] load failed", error);
    const choices: Choices = { voice: [], music: [], video: [], image: [] };
    return data({ isNew, project: null, choices, generators, limits, loadError: LOAD_FAILED }, { status: 500 });
  }
}

const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : "");

/**
 * `save` (the editor's form, with or without JavaScript): create or update, then /projects with a
 * toast; invalid -> 400 with the message in the page. `attach` (the generators, JavaScript only):
 * one slot of an existing project changed at once.
 */
export async function action({ context, request, params }: Route.ActionArgs) {
  const user = await requireUserOrExplain(context, request, LOG_IN_AGAIN);
  const isNew = params.id === "new";
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return data<SaveAnswer>({ ok: false, intent: "save", message: SAVE_FAILED }, { status: 400 });
  }
  const enhanced = form.get("enhanced") === "1";
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
          ? { ok: true, intent: "attach", slot, message: `${slotLabel(slot)} ${value ? "attached to" : "removed from"} the project` }
          : { ok: false, intent: "attach", slot, message: LOAD_FAILED };
        if (!project) status = 404;
      } catch (error) {
        if (!(error instanceof ProjectMediaError)) throw error;
        answer = { ok: false, intent: "attach", slot, message: error.message };
        status = 422;
      }
    }
    if (enhanced) return data(answer, { status });
    return answer.ok ? redirectWithSuccess(editorUrl, answer.message) : redirectWithError(editorUrl, answer.message);
  }

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
    const titleIssue = parsed.error.issues.find((issue) => issue.path[0] === "title");
    const other = parsed.error.issues.find((issue) => issue.path[0] !== "title");
    return data<SaveAnswer>(
      {
        ok: false,
        intent: "save",
        message: titleIssue?.message === TITLE_REQUIRED ? TITLE_REQUIRED : SAVE_FAILED,
        titleError: titleIssue?.message,
        detail: titleIssue && titleIssue.message !== TITLE_REQUIRED ? titleIssue.message : other?.message,
        values,
      },
      { status: 400 },
    );
  }
  try {
    const project = isNew ? await createProject(user.id, parsed.data) : await updateProject(user.id, params.id, parsed.data);
    if (!project) return data<SaveAnswer>({ ok: false, intent: "save", message: SAVE_FAILED, detail: LOAD_FAILED, values }, { status: 404 });
    if (enhanced) return data<SaveAnswer>({ ok: true, intent: "save", message: SAVED, projectId: project.id });
    return redirectWithSuccess("/projects", SAVED);
  } catch (error) {
    if (error instanceof ProjectMediaError) {
      return data<SaveAnswer>({ ok: false, intent: "save", message: SAVE_FAILED, detail: error.message, values }, { status: 422 });
    }
    console.error("[project] save failed", error);
    return data<SaveAnswer>({ ok: false, intent: "save", message: SAVE_FAILED, values }, { status: 500 });
  }
}

/** With JavaScript: a save or attach whose request fails says SPEC's text and keeps the editor as it is. */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const intent = (await request.clone().formData()).get("intent");
  return withFailureFallback(serverAction, (): SaveAnswer | AttachAnswer =>
    intent === "attach" ? { ok: false, intent: "attach", message: SAVE_FAILED } : { ok: false, intent: "save", message: SAVE_FAILED },
  );
}

export default function ProjectEditorScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { isNew, project, loadError } = loaderData;
  if (loadError) {
    return (
      <main className="page page-narrow project-editor-page">
        <EditorHeader title={isNew ? "New Project" : "Edit Project"} />
        <p className="message message-error" role="alert">
          {loadError}
        </p>
      </main>
    );
  }
  const saveAnswer = actionData && actionData.intent === "save" ? (actionData as SaveAnswer) : null;
  return <ProjectEditor key={project?.id ?? "new"} data={loaderData} saveAnswer={saveAnswer} />;
}

function EditorHeader({ title }: { title: string }) {
  return <MediaHeader title={title} back={{ to: "/projects", label: "Projects" }} />;
}

type LoaderData = Route.ComponentProps["loaderData"];

function ProjectEditor({ data: loaded, saveAnswer }: { data: LoaderData; saveAnswer: SaveAnswer | null }) {
  const { isNew, project, limits, generators } = loaded;
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const formAction = isNew ? "/project/new" : `/project/${encodeURIComponent(project!.id)}`;

  // A plain-form answer (no JavaScript) brings the person's values back; otherwise the stored project.
  const initial = saveAnswer?.values ?? { title: project?.title ?? "", description: project?.description ?? "", selection: selectionOf(project) };
  const [title, setTitle] = useState(initial.title);
  const [description, setDescription] = useState(initial.description);
  const [selection, setSelection] = useState<Selection>(initial.selection);
  const [choices, setChoices] = useState<Choices>(loaded.choices);
  const [status, setStatus] = useState<{ ok: boolean; text: string; detail?: string } | null>(
    saveAnswer && !saveAnswer.ok ? { ok: false, text: saveAnswer.message, detail: saveAnswer.detail } : null,
  );
  const [titleError, setTitleError] = useState(saveAnswer?.titleError ?? null);

  const saveFetcher = useFetcher<SaveAnswer>({ key: "project-save" });
  const attachFetcher = useFetcher<AttachAnswer>({ key: "project-attach" });
  const saving = saveFetcher.state !== "idle";

  // The enhanced save's answer: the message, then /projects after 0.8 s (SPEC §4, §9).
  const handledSave = useRef<unknown>(null);
  useEffect(() => {
    const answer = saveFetcher.data;
    if (saveFetcher.state !== "idle" || !answer || handledSave.current === answer) return;
    handledSave.current = answer;
    setStatus({ ok: answer.ok, text: answer.message, detail: answer.detail });
    setTitleError(answer.titleError ?? null);
    if (!answer.ok) return;
    const timer = setTimeout(() => navigate("/projects"), SAVED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [saveFetcher.state, saveFetcher.data, navigate]);

  const handledAttach = useRef<unknown>(null);
  useEffect(() => {
    const answer = attachFetcher.data;
    if (attachFetcher.state !== "idle" || !answer || handledAttach.current === answer) return;
    handledAttach.current = answer;
    if (answer.ok) toast.success(answer.message);
    else toast.error(answer.message);
  }, [attachFetcher.state, attachFetcher.data]);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!title.trim()) {
      setStatus({ ok: false, text: TITLE_REQUIRED });
      setTitleError(TITLE_REQUIRED);
      return;
    }
    setStatus(null);
    const form = new FormData(event.currentTarget);
    form.set("enhanced", "1");
    saveFetcher.submit(form, { method: "post", action: formAction });
  };

  /** A generator's result (or a chosen track) goes into its slot; an existing project keeps it at once. */
  const attach = (slot: ProjectSlot, choice: GeneratedChoice) => {
    setChoices((current) =>
      current[slot].some((existing) => existing.id === choice.id) ? current : { ...current, [slot]: [choice, ...current[slot]] },
    );
    setSelection((current) => ({ ...current, [slot]: choice.id }));
    if (isNew) {
      toast.info(`${slotLabel(slot)} attached: it is saved with the project when you press Save Project.`);
      return;
    }
    attachFetcher.submit({ intent: "attach", slot, value: choice.id, enhanced: "1" }, { method: "post", action: formAction });
  };

  const names = Object.fromEntries(
    PROJECT_SLOTS.map((slot) => [slot, choices[slot].find((choice) => choice.id === selection[slot])?.name ?? null]),
  ) as Record<ProjectSlot, string | null>;

  return (
    <main className="page page-narrow project-editor-page">
      <EditorHeader title={isNew ? "New Project" : "Edit Project"} />
      <FlashMessage />
      <Form method="post" action={formAction} className="card form project-form" aria-label="Project" onSubmit={hydrated ? onSubmit : undefined} noValidate={hydrated}>
        <input type="hidden" name="intent" value="save" />
        <label>
          Title
          <input
            name="title"
            required
            maxLength={limits.title}
            value={title}
            onChange={(event) => {
              setTitle(event.target.value);
              setTitleError(null);
            }}
            aria-invalid={!!titleError}
            aria-describedby={titleError ? "project-title-error" : undefined}
          />
          {titleError ? (
            <span className="field-error" id="project-title-error">
              {titleError}
            </span>
          ) : null}
        </label>
        <label>
          Description
          <textarea name="description" rows={5} maxLength={limits.description} value={description} onChange={(event) => setDescription(event.target.value)} />
        </label>
        <fieldset className="project-media">
          <legend>Media</legend>
          <ProjectMediaIcons names={names} />
          {PROJECT_SLOTS.map((slot) => (
            <MediaSlot
              key={slot}
              slot={slot}
              choices={choices[slot]}
              value={selection[slot]}
              onChange={(value) => setSelection((current) => ({ ...current, [slot]: value }))}
            />
          ))}
        </fieldset>
        {status ? (
          <p className={`message ${status.ok ? "message-success" : "message-error"}`} role={status.ok ? "status" : "alert"} data-testid="project-status">
            {status.text}
            {status.detail ? <span className="message-detail">{status.detail}</span> : null}
          </p>
        ) : null}
        <div className="project-actions">
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? "Saving..." : "💾 Save Project"}
          </button>
          <Link className="button button-ghost" to="/projects">
            Cancel
          </Link>
        </div>
      </Form>
      <ProjectGenerators
        hydrated={hydrated}
        imageConfigured={generators.imageConfigured}
        assistantOffline={generators.assistantOffline}
        selectedMusic={selection.music}
        onScript={(script) =>
          setDescription((current) => (current.trim() ? `${current.trimEnd()}\n\n${script}` : script).slice(0, limits.description))
        }
        onAttach={attach}
      />
    </main>
  );
}

/** The form's fields carry file ids (and a track id for music); the model takes ids or names. */
const SLOT_FIELDS: Record<ProjectSlot, string> = { voice: "voice_file", music: "music_file", video: "video_file", image: "image_file" };
const KIND_NOTES: Record<string, string> = {
  voice: "voice clip",
  speech: "generated speech",
  video: "uploaded video",
  aivideo: "AI video",
  image: "image",
  music: "bundled track",
};

/** One slot: a select of the person's files of the kinds it takes (works without JavaScript) and a preview. */
function MediaSlot({ slot, choices, value, onChange }: { slot: ProjectSlot; choices: MediaChoice[]; value: string; onChange: (value: string) => void }) {
  const chosen = choices.find((choice) => choice.id === value);
  const url = slot === "music" ? musicTrack(value)?.url : chosen ? `/media/${encodeURIComponent(chosen.id)}` : undefined;
  const label = slotLabel(slot);
  return (
    <div className="project-slot" data-slot={slot}>
      <label htmlFor={`project-${slot}`}>{label}</label>
      <select id={`project-${slot}`} name={SLOT_FIELDS[slot]} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{`No ${label.toLowerCase()}`}</option>
        {choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {slot === "music" ? choice.name : `${choice.name} (${KIND_NOTES[choice.kind] ?? choice.kind})`}
          </option>
        ))}
      </select>
      {url && chosen ? <SlotPreview slot={slot} url={url} name={chosen.name} /> : null}
      {choices.length === 0 && slot !== "music" ? <p className="muted project-slot-empty">{EMPTY_SLOT_HINTS[slot]}</p> : null}
    </div>
  );
}

const EMPTY_SLOT_HINTS: Record<Exclude<ProjectSlot, "music">, string> = {
  voice: "No voice clips yet: upload one in Voices or generate one below.",
  video: "No videos yet: upload one in the Video Hub or generate one below.",
  image: "No images yet: make one with the Drawing Pad or generate one below.",
};

function SlotPreview({ slot, url, name }: { slot: ProjectSlot; url: string; name: string }) {
  if (slot === "image") return <img className="project-slot-preview" src={url} alt={name} />;
  if (slot === "video") return <video className="project-slot-preview" src={url} controls preload="metadata" aria-label={name} />;
  return <audio className="project-slot-preview" src={url} controls preload="none" aria-label={name} />;
}

/** The editor's own fetchers answer with what the screen already shows; reloading its data would reset the form. */
export function shouldRevalidate({ formAction, currentUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formAction === currentUrl.pathname) return false;
  return defaultShouldRevalidate;
}
