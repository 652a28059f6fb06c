import { useEffect, useRef, useState } from "react";
import { Form, Link, useFetcher, useNavigate } from "react-router";
import { PROJECT_SLOTS, type ProjectSlot } from "~/common/project-rules";
import { FlashMessage } from "~/components/shell/flash-message";
import { MediaHeader } from "~/components/shell/page-header";
import { Icon } from "~/components/ui/icon";
import { ProjectGenerators, type GeneratedChoice } from "./project-generators";
import { ProjectMediaIcons } from "./project-media-icons";
import { SLOT_ATTACHED_ON_SAVE } from "./project-texts";
import { MediaSlot, type MediaChoice } from "./project-media-slots";
import { toast } from "~/components/shell/toasts";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useT } from "~/components/ui/i18n";
import { msg } from "~/common/i18n/translate";
import type { clientAction } from "~/routes/project";

/** docs/screens.md#states-and-transitions, #error-messages and #constants-and-limits texts and timing of the project editor (shared with its route's action). */
export const TITLE_REQUIRED = msg("Title required");
export const SAVED = msg("Project saved successfully!");
export const SAVE_FAILED = msg("Failed to save project");
export const LOAD_FAILED = msg("Failed to load project");
/** The editor's page titles (its heading and the document's title). */
export const NEW_PROJECT = msg("New Project");
export const EDIT_PROJECT = msg("Edit Project");
const SAVED_REDIRECT_MS = 800;

export type Selection = Record<ProjectSlot, string>;
export type Choices = Record<ProjectSlot, MediaChoice[]>;
export interface EditorValues {
  title: string;
  description: string;
  selection: Selection;
}
/** The action's answer to `save` (a fetcher reads it; a plain form gets it back on a failure); the screen shows its texts through `t`. */
export interface SaveAnswer {
  ok: boolean;
  intent: "save";
  message: string;
  detail?: string;
  titleError?: string;
  values?: EditorValues;
  projectId?: string;
}
/** The action's answer to `attach` (the generators, JavaScript only). */
export interface AttachAnswer {
  ok: boolean;
  intent: "attach";
  slot?: ProjectSlot;
  message: string;
}

/** What the editor needs of a stored project. */
export interface EditorProject {
  id: string;
  title: string;
  description: string | null;
  media: Partial<Record<ProjectSlot, { id: string } | null>>;
}

interface LoaderData {
  isNew: boolean;
  project: EditorProject | null;
  choices: Choices;
  generators: { imageConfigured: boolean; assistantOffline: boolean };
  limits: { title: number; description: number };
}

const EMPTY_SELECTION: Selection = { voice: "", music: "", video: "", image: "" };

function selectionOf(project: EditorProject | null): Selection {
  if (!project) return EMPTY_SELECTION;
  return {
    voice: project.media.voice?.id ?? "",
    music: project.media.music?.id ?? "",
    video: project.media.video?.id ?? "",
    image: project.media.image?.id ?? "",
  };
}

/** The editor's heading, and the document's title: `title` is NEW_PROJECT or EDIT_PROJECT. */
export function EditorHeader({ title }: { title: string }) {
  const { t } = useT();
  return (
    <>
      <title>
        {title === NEW_PROJECT ? t("New Project · Creative AI Studio") : t("Edit Project · Creative AI Studio")}
      </title>
      <MediaHeader title={t(title)} icon="folder-open" back={{ to: "/projects", label: t("Back to Projects") }} />
    </>
  );
}

export function ProjectEditor({ data: loaded, saveAnswer }: { data: LoaderData; saveAnswer: SaveAnswer | null }) {
  const { isNew, project, limits, generators } = loaded;
  const { t } = useT();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const formAction = isNew ? "/project/new" : `/project/${encodeURIComponent(project!.id)}`;

  // A plain-form answer (no JavaScript) brings the person's values back; otherwise the stored project.
  const initial = saveAnswer?.values ?? {
    title: project?.title ?? "",
    description: project?.description ?? "",
    selection: selectionOf(project),
  };
  const [title, setTitle] = useState(initial.title);
  const [description, setDescription] = useState(initial.description);
  const [selection, setSelection] = useState<Selection>(initial.selection);
  const [choices, setChoices] = useState<Choices>(loaded.choices);
  // A title's error is said once, beside the field; the status line says the rest.
  const [status, setStatus] = useState<{ ok: boolean; text: string; detail?: string } | null>(
    saveAnswer && !saveAnswer.ok && !saveAnswer.titleError
      ? { ok: false, text: saveAnswer.message, detail: saveAnswer.detail }
      : null,
  );
  const [titleError, setTitleError] = useState(saveAnswer?.titleError ?? null);

  const saveFetcher = useFetcher<typeof clientAction>({ key: "project-save" });
  const attachFetcher = useFetcher<typeof clientAction>({ key: "project-attach" });
  const saving = saveFetcher.state !== "idle";

  // The enhanced save's answer: the message, then /projects after 0.8 s (docs/screens.md#states-and-transitions and #constants-and-limits).
  const handledSave = useRef<unknown>(null);
  useEffect(() => {
    const answer = saveFetcher.data;
    // The form posts intent=save: the action's attach answers go to the generators' fetcher.
    if (saveFetcher.state !== "idle" || answer?.intent !== "save" || handledSave.current === answer) return;
    handledSave.current = answer;
    setStatus(answer.titleError ? null : { ok: answer.ok, text: answer.message, detail: answer.detail });
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
    if (answer.ok) toast.success(t(answer.message));
    else toast.error(t(answer.message));
  }, [attachFetcher.state, attachFetcher.data, t]);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!title.trim()) {
      setStatus(null);
      setTitleError(TITLE_REQUIRED);
      return;
    }
    setStatus(null);
    const form = new FormData(event.currentTarget);
    form.set("enhanced", "1"); // answered with data (see answersWithData in app/lib/screens/forms.server.ts)
    saveFetcher.submit(form, { method: "post", action: formAction });
  };

  /** A generator's result (or a chosen track) goes into its slot; an existing project keeps it at once. */
  const attach = (slot: ProjectSlot, choice: GeneratedChoice) => {
    setChoices((current) =>
      current[slot].some((existing) => existing.id === choice.id)
        ? current
        : { ...current, [slot]: [choice, ...current[slot]] },
    );
    setSelection((current) => ({ ...current, [slot]: choice.id }));
    if (isNew) {
      toast.info(t(SLOT_ATTACHED_ON_SAVE[slot]));
      return;
    }
    attachFetcher.submit(
      { intent: "attach", slot, value: choice.id, enhanced: "1" },
      { method: "post", action: formAction },
    );
  };

  const names = Object.fromEntries(
    PROJECT_SLOTS.map((slot) => [slot, choices[slot].find((choice) => choice.id === selection[slot])?.name ?? null]),
  ) as Record<ProjectSlot, string | null>;

  return (
    <main className="page project-editor-page">
      <EditorHeader title={isNew ? NEW_PROJECT : EDIT_PROJECT} />
      <FlashMessage />
      {/* The form beside its generators on wide screens. */}
      <div className="workspace">
        <Form
          method="post"
          action={formAction}
          id={PROJECT_FORM_ID}
          className="card form project-form"
          aria-label={t("Project")}
          onSubmit={hydrated ? onSubmit : undefined}
          noValidate={hydrated}
        >
          <input type="hidden" name="intent" value="save" />
          <div className="project-field">
            <label>
              {t("Title")}
              <input
                name="title"
                required
                maxLength={limits.title}
                value={title}
                onChange={(event) => {
                  setTitle(event.target.value);
                  // Fixed as soon as a title is typed: its error goes.
                  if (event.target.value.trim()) setTitleError(null);
                }}
                aria-invalid={!!titleError}
                aria-describedby={titleError ? "project-title-error" : undefined}
              />
            </label>
            {titleError ? (
              <p className="field-error" id="project-title-error" role="alert" data-testid="project-title-error">
                {t(titleError)}
              </p>
            ) : null}
          </div>
          <label>
            {t("Description")}
            <textarea
              name="description"
              rows={3}
              maxLength={limits.description}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
            />
          </label>
          <fieldset className="project-media">
            <legend>{t("Media")}</legend>
            <ProjectMediaIcons names={names} />
            <div className="project-slots">
              {PROJECT_SLOTS.map((slot) => (
                <MediaSlot
                  key={slot}
                  slot={slot}
                  choices={choices[slot]}
                  value={selection[slot]}
                  onChange={(value) => setSelection((current) => ({ ...current, [slot]: value }))}
                />
              ))}
            </div>
          </fieldset>
          {status ? (
            <p
              className={`message ${status.ok ? "message-success" : "message-error"}`}
              role={status.ok ? "status" : "alert"}
              data-testid="project-status"
            >
              {t(status.text)}
              {status.detail ? <span className="message-detail">{t(status.detail)}</span> : null}
            </p>
          ) : null}
          <div className="project-actions">
            <button type="submit" className="button button-primary" disabled={saving}>
              {saving ? null : <Icon name="save" />}
              {saving ? t("Saving...") : t("Save Project")}
            </button>
            <Link className="button button-ghost" to="/projects">
              {t("Cancel")}
            </Link>
            {/* A plain download of the saved project: project.json and its files, as a zip. */}
            {isNew ? null : (
              <a
                className="button button-ghost"
                href={`/api/project/${encodeURIComponent(project!.id)}/export`}
                download
              >
                {t("Export project")}
              </a>
            )}
          </div>
        </Form>
        <ProjectGenerators
          hydrated={hydrated}
          imageConfigured={generators.imageConfigured}
          assistantOffline={generators.assistantOffline}
          onMusic={hydrated ? (trackId) => setSelection((current) => ({ ...current, music: trackId })) : undefined}
          onScript={(script) =>
            setDescription((current) =>
              (current.trim() ? `${current.trimEnd()}\n\n${script}` : script).slice(0, limits.description),
            )
          }
          onAttach={attach}
          projectId={isNew ? undefined : project?.id}
        />
      </div>
    </main>
  );
}

const PROJECT_FORM_ID = "project-form";
