import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { storageUsage } from "~/models/media/library-files.server";
import type { Route } from "./+types/library.usage";

/** GET /api/library/usage -> {used_bytes, quota_bytes, by_kind: {voice, video, ...}, text_bytes} (bytes; every kind present; used_bytes includes text_bytes). */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const usage = await storageUsage(user.id);
  return Response.json(
    { used_bytes: usage.usedBytes, quota_bytes: usage.quotaBytes, by_kind: usage.byKind, text_bytes: usage.textBytes },
    { headers: { "Cache-Control": "no-store" } },
  );
});

export const action = refuseMethod("GET, HEAD");
