import { retryMyVideoJob } from "~/services/video-jobs/video-job-requests.server";
import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import type { Route } from "./+types/aivideo.retry";

/**
 * POST /api/aivideo/{id}/retry -> a new job with the same prompt, answered as POST /api/aivideo/ is
 * (202, same limits); 404 unknown or another person's; 409 unless the job failed, timed out or was cancelled.
 */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const job = await retryMyVideoJob(user.id, params.id);
  return Response.json(
    { id: job.id, status: job.status, progress: job.progress, url: job.url },
    { status: 202, headers: { Location: `/api/aivideo/status/${encodeURIComponent(job.id)}` } },
  );
});

export const loader = refuseMethod("POST");
