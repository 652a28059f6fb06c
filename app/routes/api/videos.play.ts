import { DomainError } from "~/lib/domain-error";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { queryOf } from "~/lib/http/bodies.server";
import { fileResponse } from "~/lib/http/file-response.server";
import { verifyMediaAccess } from "~/lib/storage/signed-url.server";
import { fileStore } from "~/lib/storage/storage.server";
import { getMediaById, mediaNotFound, servedFile } from "~/models/media/media.server";
import { accountState } from "~/models/accounts/user.server";
import type { Route } from "./+types/videos.play";

/**
 * GET/HEAD /api/videos/play/{file id}?user=&expires=&signature= (made by /api/videos/signed_url):
 * the video's bytes without a session, with byte ranges. A changed or expired link -> 403. The link's
 * owner is checked at every use: disabled -> 403, deleted -> 404 (docs/decisions/0051).
 */
const LINK_OWNER_DISABLED = "This link no longer works: its owner's account is disabled.";

export const loader = apiAction(async ({ request, params }: Route.LoaderArgs) => {
  const access = verifyMediaAccess(params.id, queryOf(request));
  if (!access.ok)
    throw new DomainError(403, access.reason === "expired" ? "This link has expired" : "Invalid link signature");
  const owner = await accountState(access.userId);
  if (owner === "disabled") throw new DomainError(403, LINK_OWNER_DISABLED);
  const file = owner === "active" ? await getMediaById(access.userId, params.id) : undefined;
  if (!file || file.kind !== "video") throw new DomainError(404, mediaNotFound("video"));
  const secondsLeft = Math.max(0, access.expires - Math.floor(Date.now() / 1000));
  return fileResponse(request, fileStore, servedFile(file), `private, max-age=${secondsLeft}`);
});

export const action = refuseMethod("GET, HEAD");
