import { moveMyVideoJob } from "~/services/video-jobs/video-job-requests.server";
import { requireApiUser } from "~/auth/auth.server";
import { DomainError } from "~/lib/domain-error";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { moveVideoJobSchema } from "~/models/video-jobs/video-job-control.server";
import type { Route } from "./+types/aivideo.move";

/**
 * POST /api/aivideo/{id}/move {before: id|null} -> 204: the person's waiting job goes before another of
 * their waiting jobs, or last (null). 400 when `before` is missing or not another of their waiting
 * jobs; 404 unknown or another person's; 409 when the job no longer waits.
 */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const parsed = moveVideoJobSchema.safeParse(await readJsonBody(request));
  if (!parsed.success) throw new DomainError(400, parsed.error.issues[0].message);
  await moveMyVideoJob(user.id, params.id, parsed.data.before);
  return new Response(null, { status: 204 });
});

export const loader = refuseMethod("POST");
