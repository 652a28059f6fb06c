import { useCallback, useEffect, useRef, useState } from "react";
import { fetchTestMode, startVideo, videoStatus } from "~/browser/ai-client";
import { ApiError } from "~/browser/api-client";
import { isFinished, pollVideoJob } from "~/browser/video-status";
import { useHydrated } from "~/components/ui/use-hydrated";

/** The AI video screen's job, as it follows it (routes/aivideo.tsx). */
export interface JobState {
  id: string | null;
  status: string;
  progress: number;
  url: string | null;
  /** The finished clip's file (where "Open in Video Hub" leads); never shown. */
  media_id?: string | null;
}

/** docs/screens.md#states-and-transitions: poll every 1 s; stop on completed or a poll error; time out after more than 15 polls. */
export function useVideoJob(initial: JobState | null) {
  const [job, setJob] = useState<JobState | null>(initial);
  const [refused, setRefused] = useState<string | null>(null);
  const jobRef = useRef(job);
  jobRef.current = job;
  const run = useRef(0);
  const controller = useRef<AbortController | null>(null);

  const stop = useCallback(() => {
    run.current++;
    controller.current?.abort();
  }, []);

  const follow = useCallback((id: string) => {
    const abort = new AbortController();
    controller.current = abort;
    pollVideoJob({
      poll: (signal) => videoStatus(id, signal),
      onUpdate: (status) => setJob(status),
      onEnd: (end) => {
        if (end !== "finished") setJob((current) => current && { ...current, status: end });
      },
      signal: abort.signal,
    });
  }, []);

  const start = useCallback(
    async (prompt: string) => {
      const previous = jobRef.current;
      stop();
      const thisRun = run.current;
      setRefused(null);
      setJob({ id: null, status: "starting", progress: 0, url: null });
      try {
        const id = await startVideo(prompt);
        if (run.current !== thisRun) return;
        setJob({ id, status: "starting", progress: 0, url: null });
        follow(id);
      } catch (error) {
        if (run.current !== thisRun) return;
        if (error instanceof ApiError && error.status === 429) {
          // Too many jobs in flight: say why, and go on showing the job that was on screen.
          setRefused(error.detail);
          setJob(previous);
          if (previous?.id && !isFinished(previous.status)) follow(previous.id);
          return;
        }
        setJob({ id: null, status: "error", progress: 0, url: null });
      }
    },
    [follow, stop],
  );

  // A job shown from ?job= (after a plain-form post) is followed from here on.
  useEffect(() => {
    if (initial?.id && !isFinished(initial.status)) follow(initial.id);
    return stop;
  }, [initial?.id, initial?.status, follow, stop]);

  return { job, start, refused };
}

export function useTestMode(): boolean {
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
