import { useEffect, useState } from "react";
import { useFetcher, useNavigate } from "react-router";
import { listVideoJobs, type ListedVideoJob } from "~/browser/ai-client";
import { isFinished, videoRefusalText, videoStatusText, VIDEO_POLL_MS } from "~/browser/video-status";
import { formatNumber, formatPercent } from "~/common/i18n/formats";
import { useT } from "~/components/ui/i18n";
import { EnhancedField } from "~/components/ui/enhanced-field";
import { Icon } from "~/components/ui/icon";
import type { IconName } from "~/common/icons";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { action } from "~/routes/aivideo";

const RETRYABLE = new Set(["error", "timeout", "cancelled"]);

/** Shown in the order things happen: jobs being worked, then the waiting line, then the ended ones (newest first). */
function inShowingOrder(jobs: ListedVideoJob[]): ListedVideoJob[] {
  const rank = (job: ListedVideoJob) => (isFinished(job.status) ? 2 : job.position === null ? 0 : 1);
  return [...jobs].sort(
    (a, b) => rank(a) - rank(b) || (a.position ?? 0) - (b.position ?? 0) || b.created_at.localeCompare(a.created_at),
  );
}

/** True while a listed job is still queued or being worked: the screen keeps refreshing. */
export const hasActiveJob = (jobs: ListedVideoJob[]) => jobs.some((job) => !isFinished(job.status));

/**
 * The person's video jobs below the generator (docs/screens.md#ai-video-jobs): Cancel while a job is
 * queued or processing, Retry once it failed or was cancelled, Up/Down in the waiting line. Each is a
 * form posting to the screen's action; once hydrated, fetchers post them (the loader then runs again),
 * and the list is read from GET /api/aivideo every second while a job is active (without JavaScript
 * the page refreshes itself, routes/aivideo.tsx).
 */
export function VideoJobList({ jobs: loaded, error: refusedByPage }: { jobs: ListedVideoJob[]; error: string | null }) {
  const { t, language } = useT();
  const hydrated = useHydrated();
  // A fetcher's refusal (the job ended meanwhile, the limits) is said like the plain form's.
  const [refusedByFetcher, setRefusedByFetcher] = useState<string | null>(null);
  const error = refusedByFetcher ?? refusedByPage;
  // What the last poll read, for as long as the loader's list is the one it was read after.
  const [polled, setPolled] = useState<{ after: ListedVideoJob[]; jobs: ListedVideoJob[] } | null>(null);
  const jobs = polled?.after === loaded ? polled.jobs : loaded;
  const active = hasActiveJob(jobs);
  useEffect(() => {
    if (!hydrated || !active) return;
    const controller = new AbortController();
    const timer = setInterval(() => {
      if (document.visibilityState !== "visible") return;
      listVideoJobs(controller.signal)
        .then((fresh) => setPolled({ after: loaded, jobs: fresh }))
        .catch(() => {});
    }, VIDEO_POLL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [hydrated, active, loaded]);

  const shown = inShowingOrder(jobs);
  const line = shown.filter((job) => job.position !== null);
  return (
    <section className="card video-jobs" aria-labelledby="video-jobs-title" data-testid="video-jobs">
      <h2 className="card-title" id="video-jobs-title">
        {t("Your video jobs")}
      </h2>
      {error ? (
        <p className="message message-error" role="alert" data-testid="video-job-error">
          {videoRefusalText(t, error)}
        </p>
      ) : null}
      {shown.length === 0 ? (
        <p className="muted">{t("No video jobs yet. The ones you start are listed here.")}</p>
      ) : (
        <ol className="video-jobs-list">
          {shown.map((job) => {
            const place = line.indexOf(job);
            return (
              <li key={job.id} className="video-jobs-item" data-testid="video-job" data-status={job.status}>
                <div className="video-jobs-text">
                  <span className="video-jobs-prompt" data-testid="video-job-prompt">
                    {job.prompt}
                  </span>
                  <span className="muted video-jobs-state" data-testid="video-job-state">
                    {t(videoStatusText(job.status))}
                    {!isFinished(job.status) && job.position === null
                      ? ` ${formatPercent(language, Math.round(job.progress * 100) / 100)}`
                      : ""}
                    {job.position !== null
                      ? ` ${t("#{{position}} in your queue", { position: formatNumber(language, job.position) })}`
                      : ""}
                  </span>
                </div>
                <div className="video-jobs-actions">
                  {place > 0 ? (
                    <JobButton
                      onAnswer={setRefusedByFetcher}
                      intent="move-job"
                      job={job}
                      before={line[place - 1].id}
                      icon="arrow-up"
                      label={t("Up")}
                      name={t("Move up: {{prompt}}", { prompt: job.prompt })}
                    />
                  ) : null}
                  {place !== -1 && place < line.length - 1 ? (
                    <JobButton
                      onAnswer={setRefusedByFetcher}
                      intent="move-job"
                      job={job}
                      before={line[place + 2]?.id ?? ""}
                      icon="arrow-down"
                      label={t("Down")}
                      name={t("Move down: {{prompt}}", { prompt: job.prompt })}
                    />
                  ) : null}
                  {!isFinished(job.status) ? (
                    <JobButton
                      onAnswer={setRefusedByFetcher}
                      intent="cancel-job"
                      job={job}
                      icon="x"
                      label={t("Cancel")}
                      name={t("Cancel: {{prompt}}", { prompt: job.prompt })}
                    />
                  ) : null}
                  {RETRYABLE.has(job.status) ? (
                    <JobButton
                      onAnswer={setRefusedByFetcher}
                      intent="retry-job"
                      job={job}
                      icon="rotate-ccw"
                      label={t("Retry")}
                      name={t("Retry: {{prompt}}", { prompt: job.prompt })}
                    />
                  ) : null}
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {hydrated ? null : (
        <p className="muted video-jobs-note">{t("This list refreshes itself while a job is queued or processing.")}</p>
      )}
    </section>
  );
}

function JobButton({
  intent,
  job,
  before,
  icon,
  label,
  name,
  onAnswer,
}: {
  onAnswer: (refusal: string | null) => void;
  intent: "cancel-job" | "retry-job" | "move-job";
  job: ListedVideoJob;
  before?: string;
  icon: IconName;
  label: string;
  name: string;
}) {
  const fetcher = useFetcher<typeof action>();
  const navigate = useNavigate();
  // A retried job is shown as a new generation is.
  const answer = fetcher.data;
  useEffect(() => {
    if (!answer) return;
    onAnswer("jobError" in answer ? answer.jobError : null);
    if ("shown" in answer) void navigate(answer.shown);
  }, [answer, navigate, onAnswer]);
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={job.id} />
      {before !== undefined ? <input type="hidden" name="before" value={before} /> : null}
      <EnhancedField />
      <button
        type="submit"
        className="button button-ghost button-small"
        aria-label={name}
        disabled={fetcher.state !== "idle"}
      >
        <Icon name={icon} />
        {label}
      </button>
    </fetcher.Form>
  );
}
