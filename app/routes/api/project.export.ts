import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { zipResponse } from "~/lib/zip/zip-response.server";
import { exportProject } from "~/services/accounts/account-export.server";
import type { Route } from "./+types/project.export";

/**
 * GET /api/project/{id}/export -> application/zip (attachment): project.json and the attached files,
 * written while sent. Another person's project or an unknown id -> 404. Cookie or bearer token.
 */
export const loader = apiAction(async ({ request, context, params }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const { filename, zip } = await exportProject(user.id, params.id);
  return zipResponse(filename, zip);
});

export const action = refuseMethod("GET");
