import { submitVideoJob } from "~/services/video-jobs/video-job-runner.server";
import { listMyVideoJobs } from "~/services/video-jobs/video-job-requests.server";
import { requireApiUser } from "~/auth/auth.server";
import { apiAction, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { videoPromptSchema } from "~/models/video-jobs/video-job.server";
import type { Route } from "./+types/aivideo";

/**
 * POST /api/aivideo/ {prompt} -> 202 {id, status, progress, url}: a new job; follow it at /api/aivideo/status/{id}.
 * 429 {detail} while the person already has VIDEO_MAX_ACTIVE_JOBS unfinished jobs.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"], "GET, POST");
  const user = await requireApiUser(context, request);
  const { prompt } = parseInput(videoPromptSchema, await readJsonBody(request));
  const job = await submitVideoJob(user.id, prompt);
  return Response.json(
    { id: job.id, status: job.status, progress: job.progress, url: job.url },
    { status: 202, headers: { Location: `/api/aivideo/status/${encodeURIComponent(job.id)}` } },
  );
});

/** GET /api/aivideo -> the person's jobs, newest first, with each waiting job's place in their line (docs/api.md#video-jobs-a-person-controls). */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  return Response.json(await listMyVideoJobs(user.id), { headers: { "Cache-Control": "no-store" } });
});
