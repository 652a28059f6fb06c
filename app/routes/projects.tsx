import { useEffect, useRef } from "react";
import { data, Link, redirect, useFetcher, useFetchers } from "react-router";
import { confirmDelete, submitterOf } from "~/browser/confirm-delete";
import { focusAfterRemoval } from "~/browser/focus";
import { withFailureFallback } from "~/browser/network-safe";
import { ConfirmPanel } from "~/components/ui/confirm-panel";
import { FlashMessage } from "~/components/shell/flash-message";
import { EmptyState, MediaHeader } from "~/components/shell/page-header";
import { Icon } from "~/components/ui/icon";
import { ProjectMediaIcons } from "~/components/projects/project-media-icons";
import { ShareControl, SharePanelInPage } from "~/components/sharing/share-dialog";
import { toast } from "~/components/shell/toasts";
import { requireUserOrExplain } from "~/auth/auth.server";
import { screenTranslator } from "~/auth/screen-language.server";
import { useT } from "~/components/ui/i18n";
import { msg } from "~/common/i18n/translate";
import { answerEnhanced, answersWithData } from "~/lib/screens/enhanced-answer.server";
import { readFormData } from "~/lib/http/bodies.server";
import { deleteProject, listProjects, type Project } from "~/models/projects/project.server";
import { screenSharing, shareAction } from "~/services/sharing/share-screen.server";
import { deleteQuestion } from "~/common/delete-question";
import { sharePanelUrl, type SharingOptions } from "~/common/sharing/share-link-view";
import sharingStylesheet from "~/styles/sharing.css?url";
import type { Route } from "./+types/projects";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: sharingStylesheet }];

/** docs/screens.md#screens-and-routes, #roles-and-permissions and #error-messages texts of the projects page. */
const LOAD_FAILED = msg("Could not load your projects.");
const DELETE_FAILED = msg("Failed to delete project.");
const LOG_IN_AGAIN = msg("Please log in again.");

type ProjectCard = Pick<
  Project,
  "id" | "title" | "description" | "voice_file" | "music_file" | "video_file" | "image_file"
>;

export async function loader({ context, request }: Route.LoaderArgs) {
  const { t } = await screenTranslator(context, request);
  const user = await requireUserOrExplain(context, request, t(LOG_IN_AGAIN));
  try {
    const url = new URL(request.url);
    const [projects, sharing] = await Promise.all([
      listProjects(user.id),
      screenSharing(user.id, "project", url, request),
    ]);
    const cards: ProjectCard[] = projects.map(
      ({ id, title, description, voice_file, music_file, video_file, image_file }) => ({
        id,
        title,
        description,
        voice_file,
        music_file,
        video_file,
        image_file,
      }),
    );
    // Without JavaScript, Delete asks first on this page (?confirm={id}).
    const confirming = cards.find((card) => card.id === url.searchParams.get("confirm")) ?? null;
    return { projects: cards, confirming, sharing, error: null };
  } catch (error) {
    console.error("[projects] load failed", error);
    return data(
      { projects: [] as ProjectCard[], confirming: null, sharing: null, error: LOAD_FAILED },
      { status: 500 },
    );
  }
}

/** Delete from the grid: a plain form (redirect back with a toast) or a fetcher (`enhanced`, answered with data). */
export async function action({ context, request }: Route.ActionArgs) {
  const translator = await screenTranslator(context, request);
  const { t } = translator;
  const user = await requireUserOrExplain(context, request, t(LOG_IN_AGAIN));
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return data({ ok: false, message: DELETE_FAILED }, { status: 400 });
  }
  const shared = await shareAction(user.id, form, request, translator);
  if (shared) return shared;
  const id = form.get("id");
  if (form.get("intent") !== "delete" || typeof id !== "string" || !id) {
    return data({ ok: false, message: "Unknown action" }, { status: 400 });
  }
  if (!answersWithData(form) && form.get("confirmed") !== "1")
    return redirect(`/projects?${new URLSearchParams({ confirm: id })}`);
  let deleted = false;
  try {
    deleted = await deleteProject(user.id, id);
  } catch (error) {
    console.error("[projects] delete failed", error);
  }
  return answerEnhanced(form, {
    data: { ok: deleted, message: deleted ? undefined : DELETE_FAILED },
    init: { status: deleted ? 200 : 404 },
    redirectTo: "/projects",
    toast: deleted ? { type: "success", message: t("Project deleted") } : { type: "error", message: t(DELETE_FAILED) },
  });
}

/** With JavaScript: a delete whose request fails brings the card back and says the text in docs/screens.md#error-messages. */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return withFailureFallback(serverAction, () => ({ ok: false, message: DELETE_FAILED }));
}

/** docs/screens.md#projects: a grid of cards with title, description, four media icons, Edit and Delete; Create New Project. */
export default function Projects({ loaderData }: Route.ComponentProps) {
  const { projects, confirming, sharing, error } = loaderData;
  const { t } = useT();
  // Optimistic delete: a card whose delete is in flight is hidden; it comes back if the delete fails.
  const deleting = new Set(
    useFetchers()
      .map((fetcher) => (fetcher.formData?.get("intent") === "delete" ? fetcher.formData.get("id") : null))
      .filter((id): id is string => typeof id === "string"),
  );
  const visible = projects.filter((project) => !deleting.has(project.id));
  return (
    <main className="page projects-page">
      <title>{t("Projects · Creative AI Studio")}</title>
      <MediaHeader title={t("Projects")} icon="folder-open">
        <Link className="button button-primary" to="/project/new">
          <Icon name="plus" />
          {t("Create New Project")}
        </Link>
      </MediaHeader>
      <FlashMessage />
      {confirming ? (
        <ConfirmPanel
          question={deleteQuestion(confirming.title, t)}
          confirmLabel={t("Delete")}
          action="/projects"
          fields={{ intent: "delete", id: confirming.id }}
          cancelTo="/projects"
        />
      ) : null}
      <SharePanelInPage
        sharing={sharing}
        screen="/projects"
        titleOf={(id) => projects.find((project) => project.id === id)?.title}
      />
      {error ? (
        <p className="message message-error" role="alert">
          {t(error)}
        </p>
      ) : null}
      {!error && visible.length === 0 ? (
        <EmptyState icon="folder-open" className="projects-empty">
          <p>{t("No projects yet. Create your first one!")}</p>
        </EmptyState>
      ) : null}
      <ul className="project-grid" aria-label={t("Your projects")}>
        {projects.map((project) => (
          <ProjectCardItem
            key={project.id}
            project={project}
            hidden={deleting.has(project.id)}
            sharing={sharing?.options ?? null}
          />
        ))}
      </ul>
    </main>
  );
}

function ProjectCardItem({
  project,
  hidden,
  sharing,
}: {
  project: ProjectCard;
  hidden: boolean;
  sharing: SharingOptions | null;
}) {
  const { t } = useT();
  const fetcher = useFetcher<typeof clientAction>({ key: `project-delete-${project.id}` });
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || reported.current === fetcher.data) return;
    reported.current = fetcher.data;
    if (!fetcher.data.ok) toast.error(t(DELETE_FAILED));
  }, [fetcher.state, fetcher.data, t]);

  const onSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const card = event.currentTarget.closest("li");
    const form = new FormData(event.currentTarget);
    // docs/screens.md#dialogs: the app's dialog asks first, with the project's title in the question.
    if (!(await confirmDelete(submitterOf(event), { message: deleteQuestion(project.title, t) }))) return;
    // The card hides at once: the next card's Delete takes the focus (the page heading after the last).
    focusAfterRemoval(card, 'button[value="delete"]', () => document.querySelector<HTMLElement>("main h1"));
    form.set("intent", "delete");
    form.set("enhanced", "1");
    form.set("confirmed", "1");
    await fetcher.submit(form, { method: "post", action: "/projects" });
  };

  const editUrl = `/project/${encodeURIComponent(project.id)}`;
  return (
    <li className="card project-card" hidden={hidden} data-testid="project-card">
      <h2 className="project-card-title">{project.title}</h2>
      {project.description ? (
        <p className="project-card-description">{project.description}</p>
      ) : (
        <p className="project-card-description muted">{t("No description provided.")}</p>
      )}
      <ProjectMediaIcons
        names={{
          voice: project.voice_file,
          music: project.music_file,
          video: project.video_file,
          image: project.image_file,
        }}
      />
      <div className="project-card-actions">
        <Link className="button button-small" to={editUrl} aria-label={t("Edit {{title}}", { title: project.title })}>
          <Icon name="pencil" />
          {t("Edit")}
        </Link>
        {sharing ? (
          <ShareControl
            kind="project"
            id={project.id}
            title={project.title}
            href={sharePanelUrl("/projects", project.id)}
            options={sharing}
          />
        ) : null}
        <form method="post" action="/projects" onSubmit={(event) => void onSubmit(event)}>
          <input type="hidden" name="id" value={project.id} />
          <button
            type="submit"
            name="intent"
            value="delete"
            className="button button-ghost button-small"
            aria-label={t("Delete {{title}}", { title: project.title })}
          >
            <Icon name="trash-2" />
            {t("Delete")}
          </button>
        </form>
      </div>
    </li>
  );
}
