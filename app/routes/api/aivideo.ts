import { submitVideoJob } from "~/services/video-job-runner.server";
import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { videoPromptSchema } from "~/models/video-job.server";
import type { Route } from "./+types/aivideo";

/**
 * POST /api/aivideo/ {prompt} -> 202 {id, status, progress, url}: a new job; follow it at /api/aivideo/status/{id}.
 * 429 {detail} while the person already has VIDEO_MAX_ACTIVE_JOBS unfinished jobs.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const { prompt } = parseInput(videoPromptSchema, await readJsonBody(request));
  const job = await submitVideoJob(user.id, prompt);
  return Response.json(
    { id: job.id, status: job.status, progress: job.progress, url: job.url },
    { status: 202, headers: { Location: `/api/aivideo/status/${encodeURIComponent(job.id)}` } },
  );
});

export const loader = refuseMethod("POST");
