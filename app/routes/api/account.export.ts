import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { zipResponse } from "~/lib/zip/zip-response.server";
import { exportAccount } from "~/services/accounts/account-export.server";
import type { Route } from "./+types/account.export";

/**
 * GET /api/account/export -> application/zip (attachment): the person's content (Markdown), projects
 * (JSON) and every file they own, with manifest.json; written while sent. Cookie or bearer token.
 */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const { filename, zip } = await exportAccount(user);
  return zipResponse(filename, zip);
});

export const action = refuseMethod("GET");
