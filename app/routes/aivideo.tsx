import { useRef, useState } from "react";
import { data, Form, Link, redirect } from "react-router";
import { isFinished, progressTone, showsProgressBar, videoRefusalText, videoStatusText } from "~/browser/video-status";
import { formatPercent } from "~/common/i18n/formats";
import { msg } from "~/common/i18n/translate";
import { useT } from "~/components/ui/i18n";
import { AiPageHeader } from "~/components/shell/ai-page-header";
import { generatedVideoHref } from "~/components/video-jobs/generated-videos";
import { Icon } from "~/components/ui/icon";
import { EmptyState } from "~/components/shell/page-header";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useTestMode, useVideoJob } from "~/components/video-jobs/use-video-job";
import { hasActiveJob, VideoJobList } from "~/components/video-jobs/video-job-list";
import { readVideoJob, submitVideoJob } from "~/services/video-jobs/video-job-runner.server";
import {
  isVideoJobIntent,
  listMyVideoJobs,
  videoJobScreenAction,
} from "~/services/video-jobs/video-job-requests.server";
import { AI_LIMITED } from "~/services/ai-limits.server";
import { requireUser } from "~/auth/auth.server";
import { readFormData } from "~/lib/http/bodies.server";
import { text } from "~/lib/screens/forms.server";
import { VIDEO_JOB_LIMIT, VIDEO_PROMPT_MAX, videoPromptSchema } from "~/models/video-jobs/video-job.server";
import { DomainError } from "~/lib/domain-error";
import { actionRetryAfter } from "~/lib/http/responder.server";
import generatedStylesheet from "~/styles/generated-media.css?url";
import jobsStylesheet from "~/styles/video-jobs.css?url";
import type { Route } from "./+types/aivideo";

/** A refusal's Retry-After (the person's AI limits) reaches the page's answer too. */
export const headers: Route.HeadersFunction = actionRetryAfter;

/** The finished clip's actions (decision 0043). */
export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: generatedStylesheet },
  { rel: "stylesheet", href: jobsStylesheet },
];

/** docs/screens.md#validation-rules: an empty prompt starts nothing, and the screen says so. */
const ENTER_PROMPT = msg("Please enter a prompt.");

/** ?job={id} shows one of the person's jobs (how the screen works without JavaScript); below, all their jobs. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const jobId = new URL(request.url).searchParams.get("job");
  const [job, jobs] = await Promise.all([jobId ? readVideoJob(user.id, jobId) : undefined, listMyVideoJobs(user.id)]);
  return {
    promptMax: VIDEO_PROMPT_MAX,
    jobs: jobs.map(({ id, status, progress, position, prompt, created_at }) => ({
      id,
      status,
      progress,
      position,
      prompt,
      created_at,
    })),
    job: job
      ? {
          id: job.id,
          status: job.status,
          progress: job.progress,
          url: job.url,
          media_id: job.media_id,
          prompt: job.prompt,
        }
      : null,
  };
}

/**
 * Without JavaScript: a plain form post starts the job and shows it (the page refreshes itself each
 * second). A person already at VIDEO_MAX_ACTIVE_JOBS unfinished jobs gets the reason in the page (429).
 */
export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const form = await readFormData(request).catch(() => null);
  // Cancel, Retry, Up/Down from the list of jobs (components/video-jobs/video-job-list.tsx).
  const intent = text(form?.get("intent") ?? null);
  if (form && isVideoJobIntent(intent)) return videoJobScreenAction(user.id, intent, form, new URL(request.url));
  const parsed = videoPromptSchema.safeParse({ prompt: form?.get("prompt") ?? "" });
  // docs/screens.md#validation-rules: an empty prompt starts no job; the field says why.
  if (!parsed.success) {
    const prompt = String(form?.get("prompt") ?? "");
    const promptError = prompt.trim() === "" ? ENTER_PROMPT : parsed.error.issues[0].message;
    return data({ promptError, prompt: prompt.slice(0, VIDEO_PROMPT_MAX) }, { status: 400 });
  }
  try {
    const job = await submitVideoJob(user.id, parsed.data.prompt);
    return redirect(`/aivideo?job=${encodeURIComponent(job.id)}`);
  } catch (error) {
    // Too many unfinished jobs, or over the person's AI limits (the reason says when to try again).
    if (!(error instanceof DomainError && (error.code === VIDEO_JOB_LIMIT || error.code === AI_LIMITED))) throw error;
    return data({ refused: error.detail, prompt: parsed.data.prompt }, { status: 429, headers: error.options.headers });
  }
}

export default function AiVideo({ loaderData, actionData }: Route.ComponentProps) {
  const { t, language } = useT();
  const hydrated = useHydrated();
  const testMode = useTestMode();
  const { job, start, refused: refusedNow } = useVideoJob(loaderData.job);
  const [prompt, setPrompt] = useState(
    (actionData && "prompt" in actionData ? actionData.prompt : undefined) ?? loaderData.job?.prompt ?? "",
  );
  const refused = refusedNow ?? (actionData && "refused" in actionData ? actionData.refused : null);
  // What is wrong with the prompt: said by the action without JavaScript, at once with it.
  const [promptError, setPromptError] = useState(
    actionData && "promptError" in actionData ? actionData.promptError : null,
  );
  const promptField = useRef<HTMLInputElement>(null);

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // docs/screens.md#validation-rules: an empty prompt starts nothing; the field says why.
    const text = prompt.trim();
    if (!text) {
      setPromptError(ENTER_PROMPT);
      promptField.current?.focus();
      return;
    }
    setPromptError(null);
    void start(text);
  };

  const busy = job !== null && !isFinished(job.status);
  const followed = loaderData.job !== null && !isFinished(loaderData.job.status);
  const percent = Math.round((job?.progress ?? 0) * 100);
  return (
    <main className="page ai-page aivideo-page">
      <title>{t("AI Video · Creative AI Studio")}</title>
      {/* A refusal stays readable: no self-refresh over it. Each second for the job shown; every 3 s
        for the list alone, so its buttons stay easy to press. */}
      {!hydrated && !actionData && (followed || hasActiveJob(loaderData.jobs)) ? (
        <noscript>
          <meta httpEquiv="refresh" content={followed ? "1" : "3"} />
        </noscript>
      ) : null}
      <AiPageHeader title={t("AI Video")} icon="clapperboard">
        {testMode ? (
          <span
            className="ai-badge ai-badge-test"
            data-testid="test-mode-badge"
            title={t("Videos are rendered offline by the local test renderer")}
          >
            <Icon name="flask-conical" />
            {t("Test Mode")}
          </span>
        ) : null}
      </AiPageHeader>
      {/* The prompt beside the preview on wide screens; one column on phones. */}
      <div className="workspace">
        <div className="workspace-column">
          <Form
            method="post"
            className="card form"
            aria-label={t("Generate a video")}
            onSubmit={hydrated ? submit : undefined}
          >
            <label>
              {t("Prompt")}
              <input
                ref={promptField}
                name="prompt"
                maxLength={loaderData.promptMax}
                value={prompt}
                onChange={(event) => {
                  setPrompt(event.target.value);
                  if (event.target.value.trim()) setPromptError(null);
                }}
                placeholder={t("A neon city in the rain, slow camera pan")}
                autoComplete="off"
                aria-invalid={promptError ? true : undefined}
                aria-describedby={promptError ? "video-prompt-error" : undefined}
                // Refused without JavaScript: back in the field that needs the words.
                // eslint-disable-next-line jsx-a11y/no-autofocus
                autoFocus={!!actionData && "promptError" in actionData}
              />
              {promptError ? (
                <span className="field-error" id="video-prompt-error" role="alert">
                  {t(promptError)}
                </span>
              ) : null}
            </label>
            <div className="ai-actions">
              <button type="submit" className="button button-primary" disabled={busy}>
                {t("Generate Video")}
              </button>
            </div>
          </Form>

          {refused ? (
            <p className="message message-error" role="alert" data-testid="video-refused">
              {videoRefusalText(t, refused)}
            </p>
          ) : null}
        </div>

        {job ? (
          <section className="card ai-result video-job" aria-label={t("Video generation")}>
            <p className="video-status" role="status" data-testid="video-status">
              {t(videoStatusText(job.status))}
            </p>
            {showsProgressBar(job.status) ? (
              <div
                className={`video-progress video-progress-${progressTone(job.progress)}`}
                role="progressbar"
                aria-label={t("Video progress")}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
                data-tone={progressTone(job.progress)}
              >
                <div className="video-progress-fill" style={{ width: `${percent}%` }} />
                <span className="video-progress-label">{formatPercent(language, percent / 100)}</span>
              </div>
            ) : null}
            <div className="video-preview-frame">
              {job.status === "completed" && job.url ? (
                <video
                  src={job.url}
                  controls
                  autoPlay
                  muted
                  loop
                  playsInline
                  className="video-preview"
                  data-testid="video-preview"
                />
              ) : (
                <span className="muted">{t("The preview appears here.")}</span>
              )}
            </div>
            {/* A finished clip: download it, or see it among the person's videos (decision 0043; no raw id is shown). */}
            {job.status === "completed" && job.url ? (
              <div className="media-actions video-job-actions">
                <a className="button button-small" href={job.url} download data-testid="video-download">
                  <Icon name="download" />
                  {t("Download")}
                </a>
                {job.media_id ? (
                  <Link
                    className="button button-primary button-small"
                    to={generatedVideoHref(job.media_id)}
                    data-testid="open-in-video-hub"
                  >
                    <Icon name="film" />
                    {t("Open in Video Hub")}
                  </Link>
                ) : null}
              </div>
            ) : null}
            {/* docs/screens.md#screens-and-routes lists the generation id on this screen; decision 0043 keeps raw ids out of sight, so it is
              one press away, for whoever reports a problem with a job. */}
            {job.id ? (
              <details className="muted video-id">
                <summary>{t("Details")}</summary>
                {t("Generation ID:")} <code data-testid="generation-id">{job.id}</code>
              </details>
            ) : null}
          </section>
        ) : (
          <section className="card ai-result" aria-label={t("Video preview")}>
            <EmptyState icon="clapperboard">
              <p>{t("Describe a shot and press Generate Video: its progress and preview appear here.")}</p>
            </EmptyState>
          </section>
        )}
      </div>
      <VideoJobList
        jobs={loaderData.jobs}
        error={actionData && "jobError" in actionData ? actionData.jobError : null}
      />
    </main>
  );
}
