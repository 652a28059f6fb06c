import { useEffect, useRef } from "react";
import { data, Link, redirect, useFetcher, useFetchers } from "react-router";
import { focusAfterRemoval } from "~/browser/focus";
import { withFailureFallback } from "~/browser/network-safe";
import { FlashMessage } from "~/components/media-ui";
import { EmptyState, MediaHeader } from "~/components/page-header";
import { Icon } from "~/components/icon";
import { ProjectMediaIcons } from "~/components/project-media-icons";
import { toast } from "~/components/toasts";
import { requireUserOrExplain } from "~/auth/auth.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { readFormData } from "~/lib/http/bodies.server";
import { deleteProject, listProjects, type Project } from "~/models/project.server";
import type { Route } from "./+types/projects";

export const meta: Route.MetaFunction = () => [{ title: "Projects · Creative AI Studio" }];

/** docs/screens.md#screens-and-routes, #roles-and-permissions and #error-messages texts of the projects page. */
const LOAD_FAILED = "Could not load your projects.";
const DELETE_FAILED = "Failed to delete project.";
const DELETE_CONFIRM = "Delete this project?";
const NO_DESCRIPTION = "No description provided.";
const LOG_IN_AGAIN = "Please log in again.";

type ProjectCard = Pick<
  Project,
  "id" | "title" | "description" | "voice_file" | "music_file" | "video_file" | "image_file"
>;

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await requireUserOrExplain(context, request, LOG_IN_AGAIN);
  try {
    const projects = await listProjects(user.id);
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
    const confirmId = new URL(request.url).searchParams.get("confirm");
    const confirming = cards.find((card) => card.id === confirmId) ?? null;
    return { projects: cards, confirming, error: null };
  } catch (error) {
    console.error("[projects] load failed", error);
    return data({ projects: [] as ProjectCard[], confirming: null, error: LOAD_FAILED }, { status: 500 });
  }
}

/** Delete from the grid: a plain form (redirect back with a toast) or a fetcher (`enhanced`, answered with data). */
export async function action({ context, request }: Route.ActionArgs) {
  const user = await requireUserOrExplain(context, request, LOG_IN_AGAIN);
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return data({ ok: false, message: DELETE_FAILED }, { status: 400 });
  }
  const enhanced = form.get("enhanced") === "1";
  const id = form.get("id");
  if (form.get("intent") !== "delete" || typeof id !== "string" || !id) {
    return data({ ok: false, message: "Unknown action" }, { status: 400 });
  }
  if (!enhanced && form.get("confirmed") !== "1") return redirect(`/projects?${new URLSearchParams({ confirm: id })}`);
  let deleted = false;
  try {
    deleted = await deleteProject(user.id, id);
  } catch (error) {
    console.error("[projects] delete failed", error);
  }
  if (enhanced)
    return data({ ok: deleted, message: deleted ? undefined : DELETE_FAILED }, { status: deleted ? 200 : 404 });
  return deleted ? redirectWithSuccess("/projects", "Project deleted") : redirectWithError("/projects", DELETE_FAILED);
}

/** With JavaScript: a delete whose request fails brings the card back and says the text in docs/screens.md#error-messages. */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return withFailureFallback(serverAction, () => ({ ok: false, message: DELETE_FAILED }));
}

/** docs/screens.md#projects: a grid of cards with title, description, four media icons, Edit and Delete; Create New Project. */
export default function Projects({ loaderData }: Route.ComponentProps) {
  const { projects, confirming, error } = loaderData;
  // Optimistic delete: a card whose delete is in flight is hidden; it comes back if the delete fails.
  const deleting = new Set(
    useFetchers()
      .map((fetcher) => (fetcher.formData?.get("intent") === "delete" ? fetcher.formData.get("id") : null))
      .filter((id): id is string => typeof id === "string"),
  );
  const visible = projects.filter((project) => !deleting.has(project.id));
  return (
    <main className="page projects-page">
      <MediaHeader title="Projects" icon="folder-open">
        <Link className="button button-primary" to="/project/new">
          <Icon name="plus" />
          Create New Project
        </Link>
      </MediaHeader>
      <FlashMessage />
      {confirming ? (
        <form
          method="post"
          action="/projects"
          className="card confirm-panel"
          role="alertdialog"
          aria-labelledby="confirm-delete"
        >
          <p id="confirm-delete" className="confirm-question">
            {DELETE_CONFIRM} <span className="muted">({confirming.title})</span>
          </p>
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="confirmed" value="1" />
          <input type="hidden" name="id" value={confirming.id} />
          <div className="project-card-actions">
            <button type="submit" className="button button-danger">
              Delete
            </button>
            <Link className="button button-ghost" to="/projects">
              Cancel
            </Link>
          </div>
        </form>
      ) : null}
      {error ? (
        <p className="message message-error" role="alert">
          {error}
        </p>
      ) : null}
      {!error && visible.length === 0 ? (
        <EmptyState icon="folder-open" className="projects-empty">
          <p>No projects yet. Create your first one!</p>
        </EmptyState>
      ) : null}
      <ul className="project-grid" aria-label="Your projects">
        {projects.map((project) => (
          <ProjectCardItem key={project.id} project={project} hidden={deleting.has(project.id)} />
        ))}
      </ul>
    </main>
  );
}

function ProjectCardItem({ project, hidden }: { project: ProjectCard; hidden: boolean }) {
  const fetcher = useFetcher<{ ok: boolean; message?: string }>({ key: `project-delete-${project.id}` });
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || reported.current === fetcher.data) return;
    reported.current = fetcher.data;
    if (!fetcher.data.ok) toast.error(DELETE_FAILED);
  }, [fetcher.state, fetcher.data]);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!window.confirm(DELETE_CONFIRM)) return;
    // The card hides at once: the next card's Delete takes the focus (the page heading after the last).
    focusAfterRemoval(event.currentTarget.closest("li"), 'button[value="delete"]', () =>
      document.querySelector<HTMLElement>("main h1"),
    );
    const form = new FormData(event.currentTarget);
    form.set("intent", "delete");
    form.set("enhanced", "1");
    fetcher.submit(form, { method: "post", action: "/projects" });
  };

  const editUrl = `/project/${encodeURIComponent(project.id)}`;
  return (
    <li className="card project-card" hidden={hidden} data-testid="project-card">
      <h2 className="project-card-title">{project.title}</h2>
      {project.description ? (
        <p className="project-card-description">{project.description}</p>
      ) : (
        <p className="project-card-description muted">{NO_DESCRIPTION}</p>
      )}
      <ProjectMediaIcons
        names={{
          voice: project.voice_file,
          music: project.music_file,
          video: project.video_file,
          image: project.image_file,
        }}
      />
      <form method="post" action="/projects" className="project-card-actions" onSubmit={onSubmit}>
        <input type="hidden" name="id" value={project.id} />
        <Link className="button button-small" to={editUrl} aria-label={`Edit ${project.title}`}>
          <Icon name="pencil" />
          Edit
        </Link>
        <button
          type="submit"
          name="intent"
          value="delete"
          className="button button-ghost button-small"
          aria-label={`Delete ${project.title}`}
        >
          <Icon name="trash-2" />
          Delete
        </button>
      </form>
    </li>
  );
}
