import { useCallback, useEffect, useRef, useState } from "react";
import { Form, redirect } from "react-router";
import { fetchTestMode, startVideo, videoStatus } from "~/browser/ai-client";
import {
  isFinished,
  progressTone,
  showsProgressBar,
  VIDEO_MAX_POLLS,
  VIDEO_POLL_MS,
  videoStatusText,
} from "~/browser/video-status";
import { AiPageHeader } from "~/components/ai-page-header";
import { useHydrated } from "~/components/use-hydrated";
import { readVideoJob, submitVideoJob } from "~/ai/video-job-runner.server";
import { requireUser } from "~/lib/auth.server";
import { readFormData } from "~/lib/http.server";
import { VIDEO_PROMPT_MAX, videoPromptSchema } from "~/models/video-job.server";
import type { Route } from "./+types/aivideo";

export const meta: Route.MetaFunction = () => [{ title: "AI Video · Creative AI Studio" }];

interface JobState {
  id: string | null;
  status: string;
  progress: number;
  url: string | null;
}

/** ?job={id} shows one of the person's jobs (how the screen works without JavaScript). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const jobId = new URL(request.url).searchParams.get("job");
  const job = jobId ? await readVideoJob(user.id, jobId) : undefined;
  return {
    promptMax: VIDEO_PROMPT_MAX,
    job: job ? { id: job.id, status: job.status, progress: job.progress, url: job.url, prompt: job.prompt } : null,
  };
}

/** Without JavaScript: a plain form post starts the job and shows it (the page refreshes itself each second). */
export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const form = await readFormData(request).catch(() => null);
  const parsed = videoPromptSchema.safeParse({ prompt: form?.get("prompt") ?? "" });
  // SPEC §5: an empty prompt is ignored.
  if (!parsed.success) return redirect("/aivideo");
  const job = await submitVideoJob(user.id, parsed.data.prompt);
  return redirect(`/aivideo?job=${encodeURIComponent(job.id)}`);
}

/** SPEC §4: poll every 1 s; stop on completed or a poll error; time out after more than 15 polls. */
function useVideoJob(initial: JobState | null) {
  const [job, setJob] = useState<JobState | null>(initial);
  const run = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const controller = useRef<AbortController | null>(null);

  const stop = useCallback(() => {
    run.current++;
    if (timer.current) clearTimeout(timer.current);
    controller.current?.abort();
  }, []);

  const follow = useCallback(
    (id: string) => {
      const thisRun = run.current;
      const abort = new AbortController();
      controller.current = abort;
      let polls = 0;
      const poll = async () => {
        if (run.current !== thisRun) return;
        if (polls >= VIDEO_MAX_POLLS) {
          setJob((current) => current && { ...current, status: "timeout" });
          return;
        }
        polls++;
        try {
          const status = await videoStatus(id, abort.signal);
          if (run.current !== thisRun) return;
          setJob(status);
          if (isFinished(status.status)) return;
        } catch {
          if (run.current !== thisRun) return;
          setJob((current) => current && { ...current, status: "error" });
          return;
        }
        timer.current = setTimeout(poll, VIDEO_POLL_MS);
      };
      timer.current = setTimeout(poll, VIDEO_POLL_MS);
    },
    [],
  );

  const start = useCallback(
    async (prompt: string) => {
      stop();
      const thisRun = run.current;
      setJob({ id: null, status: "starting", progress: 0, url: null });
      try {
        const id = await startVideo(prompt);
        if (run.current !== thisRun) return;
        setJob({ id, status: "starting", progress: 0, url: null });
        follow(id);
      } catch {
        if (run.current === thisRun) setJob({ id: null, status: "error", progress: 0, url: null });
      }
    },
    [follow, stop],
  );

  // A job shown from ?job= (after a plain-form post) is followed from here on.
  useEffect(() => {
    if (initial?.id && !isFinished(initial.status)) follow(initial.id);
    return stop;
  }, [initial?.id, initial?.status, follow, stop]);

  return { job, start };
}

function useTestMode(): boolean {
  const hydrated = useHydrated();
  const [testMode, setTestMode] = useState(false);
  useEffect(() => {
    if (!hydrated) return;
    const controller = new AbortController();
    fetchTestMode(controller.signal)
      .then(setTestMode)
      .catch(() => {});
    return () => controller.abort();
  }, [hydrated]);
  return testMode;
}

export default function AiVideo({ loaderData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const testMode = useTestMode();
  const { job, start } = useVideoJob(loaderData.job);
  const [prompt, setPrompt] = useState(loaderData.job?.prompt ?? "");

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // SPEC §5: an empty prompt is ignored.
    const text = prompt.trim();
    if (!text) return;
    void start(text);
  };

  const busy = job !== null && !isFinished(job.status);
  const percent = Math.round((job?.progress ?? 0) * 100);
  return (
    <main className="page page-narrow ai-page aivideo-page">
      {!hydrated && loaderData.job && !isFinished(loaderData.job.status) ? (
        <noscript>
          <meta httpEquiv="refresh" content="1" />
        </noscript>
      ) : null}
      <AiPageHeader title="🎬 AI Video">
        {testMode ? (
          <span className="ai-badge ai-badge-test" data-testid="test-mode-badge" title="Videos are rendered offline by the local test renderer">
            🧪 Test Mode
          </span>
        ) : null}
      </AiPageHeader>
      <Form method="post" className="card form" aria-label="Generate a video" onSubmit={hydrated ? submit : undefined}>
        <label>
          Prompt
          <input
            name="prompt"
            maxLength={loaderData.promptMax}
            value={prompt}
            onChange={(event) => setPrompt(event.target.value)}
            placeholder="A neon city in the rain, slow camera pan"
            autoComplete="off"
          />
        </label>
        <div className="ai-actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            Generate Video
          </button>
        </div>
      </Form>

      {job ? (
        <section className="card ai-result video-job" aria-label="Video generation">
          <p className="video-status" role="status" data-testid="video-status">
            {videoStatusText(job.status)}
          </p>
          {showsProgressBar(job.status) ? (
            <div
              className={`video-progress video-progress-${progressTone(job.progress)}`}
              role="progressbar"
              aria-label="Video progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              data-tone={progressTone(job.progress)}
            >
              <div className="video-progress-fill" style={{ width: `${percent}%` }} />
              <span className="video-progress-label">{percent}%</span>
            </div>
          ) : null}
          <div className="video-preview-frame">
            {job.status === "completed" && job.url ? (
              <video src={job.url} controls autoPlay muted loop playsInline className="video-preview" data-testid="video-preview" />
            ) : (
              <span className="muted">The preview appears here.</span>
            )}
          </div>
          {job.id ? (
            <p className="muted video-id">
              Generation ID: <code data-testid="generation-id">{job.id}</code>
            </p>
          ) : null}
        </section>
      ) : null}
    </main>
  );
}
