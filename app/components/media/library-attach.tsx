import { useFetcher } from "react-router";
import type { LibraryFileJson } from "~/common/media/library-rules";
import { screenText } from "~/common/media/media-texts";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import type { clientAction } from "~/routes/library";
import { useHydrated } from "~/components/ui/use-hydrated";

/** The fetcher both the chooser and its card's status line read (keyed fetchers share their state). */
const attachKey = (fileId: string) => `library-attach-${fileId}`;

/**
 * One "Attach to project" per file (decision 0044: a project dropdown on every card made a phone's library
 * 5,500 px tall): a <details> whose summary opens the chooser, the person's projects and Attach. A
 * plain form posting to /library without JavaScript; with it a fetcher, so the page stays where it
 * is and the card says what happened (AttachStatus). Sent, the chooser closes and focus goes back to
 * its summary.
 */
export function AttachChooser({
  file,
  back,
  projects,
}: {
  file: LibraryFileJson;
  back: string;
  projects: { id: string; title: string }[];
}) {
  const { t } = useT();
  const fetcher = useFetcher<typeof clientAction>({ key: attachKey(file.id) });
  const hydrated = useHydrated();
  return (
    <details className="library-attach">
      <summary className="button button-small">
        <Icon name="paperclip" />
        <span className="library-action-label">
          {/* Narrow cards show only the first part (library.css): "Attach", then "to project" where there is room. */}
          {t("Attach")}
          <span className="library-attach-more"> {t("to project")}</span>
        </span>
        <span className="visually-hidden">: {file.name}</span>
      </summary>
      <fetcher.Form
        method="post"
        action={`/library${back}`}
        className="library-attach-chooser"
        onSubmit={(event) => {
          const details = event.currentTarget.closest("details");
          details?.removeAttribute("open");
          details?.querySelector("summary")?.focus();
        }}
      >
        <input type="hidden" name="intent" value="attach" />
        <input type="hidden" name="id" value={file.id} />
        <input type="hidden" name="back" value={back} />
        {/* Answered with data (answersWithData): only a fetcher, never a plain form, reads it. */}
        {hydrated ? <input type="hidden" name="enhanced" value="1" /> : null}
        <label>
          <span>
            {t("Project")}
            <span className="visually-hidden"> {t("for {{name}}", { name: file.name })}</span>
          </span>
          <select name="project_id" defaultValue="" required>
            <option value="" disabled>
              {t("Choose a project…")}
            </option>
            {projects.map((project) => (
              <option key={project.id} value={project.id}>
                {project.title}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button-small button-primary">
          {t("Attach")}
        </button>
      </fetcher.Form>
    </details>
  );
}

/** The card's line for its last attachment ("Attached to Trip film", or why not), read out as it changes. */
export function AttachStatus({ fileId }: { fileId: string }) {
  const { t } = useT();
  const fetcher = useFetcher<typeof clientAction>({ key: attachKey(fileId) });
  // The chooser posts intent=attach: the action's other answers (a share's link) never come back here.
  const answer = fetcher.state === "idle" && fetcher.data?.intent !== "share" ? fetcher.data : undefined;
  const text = fetcher.state !== "idle" ? t("Attaching…") : answer ? t(answer.message) : "";
  return (
    <p
      className={answer && !answer.ok ? "library-card-status field-error" : "library-card-status"}
      role="status"
      aria-live="polite"
      data-testid="card-status"
    >
      {text}
      {answer && !answer.ok && answer.detail ? (
        <span className="message-detail">{screenText(t, answer.detail)}</span>
      ) : null}
    </p>
  );
}
