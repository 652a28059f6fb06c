import { readVideoJob } from "~/services/video-jobs/video-job-runner.server";
import { requireApiUser } from "~/auth/auth.server";
import { DomainError } from "~/lib/domain-error";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { VIDEO_JOB_NOT_FOUND } from "~/models/video-jobs/video-job.server";
import type { Route } from "./+types/aivideo.status";

/** GET /api/aivideo/status/{id} -> {id, status, progress (0..1), url, media_id, error}; unknown or another user's -> 404. */
export const loader = apiAction(async ({ request, context, params }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const job = await readVideoJob(user.id, params.id);
  if (!job) throw new DomainError(404, VIDEO_JOB_NOT_FOUND);
  return Response.json(
    { id: job.id, status: job.status, progress: job.progress, url: job.url, media_id: job.media_id, error: job.error },
    { headers: { "Cache-Control": "no-store" } },
  );
});

export const action = refuseMethod("GET");
