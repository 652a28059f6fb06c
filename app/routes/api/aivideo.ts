import { submitVideoJob } from "~/services/video-job-runner.server";
import { requireApiUser } from "~/auth/auth.server";
import { apiError, parseApiInput, readJsonBody } from "~/lib/http.server";
import { VideoJobLimitError, videoPromptSchema } from "~/models/video-job.server";
import type { Route } from "./+types/aivideo";

/**
 * POST /api/aivideo/ {prompt} -> 202 {id, status, progress, url}: a new job; follow it at /api/aivideo/status/{id}.
 * 429 {detail} while the person already has VIDEO_MAX_ACTIVE_JOBS unfinished jobs.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed", { Allow: "POST" });
  const user = await requireApiUser(context, request);
  const { prompt } = parseApiInput(videoPromptSchema, await readJsonBody(request));
  let job;
  try {
    job = await submitVideoJob(user.id, prompt);
  } catch (error) {
    if (error instanceof VideoJobLimitError) return apiError(429, error.message);
    throw error;
  }
  return Response.json(
    { id: job.id, status: job.status, progress: job.progress, url: job.url },
    { status: 202, headers: { Location: `/api/aivideo/status/${encodeURIComponent(job.id)}` } },
  );
}

export const loader = () => apiError(405, "Method not allowed", { Allow: "POST" });
