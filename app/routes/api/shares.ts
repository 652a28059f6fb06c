import { requireApiUser } from "~/auth/auth.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { publicOrigin } from "~/lib/http/public-origin.server";
import { apiAction, requireMethod } from "~/lib/http/responder.server";
import { createShare, listShares } from "~/models/sharing/share.server";
import type { Route } from "./+types/shares";

/** GET /api/shares -> {shares: [ShareJson]}: the person's live links, newest first (docs/api.md#share-links). */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  return Response.json({ shares: await listShares(user.id, publicOrigin(request)) });
});

/**
 * POST /api/shares {kind, id, expires_in_hours?, max_views?} -> 201 ShareJson. Bad JSON, a bad kind or a
 * number out of range 400; another person's (or no) target 404; SHARING=off 403.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"], "GET, POST");
  const user = await requireApiUser(context, request);
  const share = await createShare(user.id, await readJsonBody(request), publicOrigin(request));
  return Response.json(share, { status: 201 });
});
