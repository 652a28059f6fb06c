import { cancelMyVideoJob } from "~/services/video-jobs/video-job-requests.server";
import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import type { Route } from "./+types/aivideo.cancel";

/** POST /api/aivideo/{id}/cancel -> 200 {id, status: "cancelled"}; 404 unknown or another person's; 409 already ended. */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  await cancelMyVideoJob(user.id, params.id);
  return Response.json({ id: params.id, status: "cancelled" });
});

export const loader = refuseMethod("POST");
