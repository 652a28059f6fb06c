import { msg } from "~/common/i18n/translate";
import { db } from "~/lib/db/db.server";
import { env } from "~/lib/settings/env.server";
import { nowIso } from "~/lib/db/ids.server";
import { loadSharedTarget, ownerActive, targetExists, type SharedTarget } from "./share-target.server";
import { isShareTokenShape, shareTokenHash } from "./share-token.server";

/**
 * Opening a share link by its token, for the public page (docs/decisions/0069): its page (counted) and
 * its files (not counted). Re-exported by app/models/sharing/share.server.ts.
 */

/** SHARING=off: no new links (403, as a closed registration); the person's list and Revoke keep working. */
export const SHARING_OFF = msg("Sharing is turned off.");
export const sharingEnabled = () => env.sharing !== "off";

/** null when no link has this token; "gone" when it has one that is over. */
async function unknownOrGone(hash: string): Promise<"gone" | null> {
  const row = await db.selectFrom("shares").select("id").where("token_hash", "=", hash).executeTakeFirst();
  return row ? "gone" : null;
}

/**
 * With SHARING=off no link opens: null, as for an unknown token (the public page answers 404).
 *
 * Opens a link for its page and counts one view, in one conditional UPDATE … RETURNING: the row is
 * only changed while the link is live (not revoked, not expired, views below max_views, target there,
 * owner not disabled), so under any number of concurrent opens exactly max_views succeed on both engines
 * (SQLite writes one at a time; PostgreSQL re-checks the condition on the row a concurrent update left).
 */
export async function openShareForView(token: string): Promise<SharedTarget | "gone" | null> {
  if (!sharingEnabled() || !isShareTokenShape(token)) return null;
  const hash = shareTokenHash(token);
  const now = nowIso();
  const counted = await db
    .updateTable("shares")
    .set((eb) => ({ views: eb("views", "+", 1) }))
    .where("token_hash", "=", hash)
    .where("revoked_at", "is", null)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
    .where((eb) => eb.or([eb("max_views", "is", null), eb("views", "<", eb.ref("max_views"))]))
    .where(targetExists)
    .where(ownerActive)
    .returning(["id", "kind", "user_id", "target_id"])
    .executeTakeFirst();
  if (!counted) return unknownOrGone(hash);
  // A target deleted between the count and this read: gone all the same.
  return (await loadSharedTarget(counted)) ?? "gone";
}

/**
 * Opens a link for its file bytes (the image, the player's ranges, the Download), counting nothing: the
 * same rules as a view except the views limit, since the page that was counted asks for its files
 * afterwards (the public page signs a grant for that). `fileId`: the file asked for, which must be the
 * shared file or one of the shared project's; the answer's `file` is then that file. A fileId the link
 * does not share is null (no such file here). `viewsLeft`: also "gone" when the views are used up (the
 * page's HEAD, which counts none but must answer as its GET would).
 */
export async function openShareForFile(
  token: string,
  fileId?: string,
  { viewsLeft = false } = {},
): Promise<SharedTarget | "gone" | null> {
  if (!sharingEnabled() || !isShareTokenShape(token)) return null;
  const hash = shareTokenHash(token);
  const now = nowIso();
  const row = await db
    .selectFrom("shares")
    .select(["id", "kind", "user_id", "target_id"])
    .where("token_hash", "=", hash)
    .where("revoked_at", "is", null)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
    .where(ownerActive)
    .$if(viewsLeft, (query) =>
      query.where((eb) => eb.or([eb("max_views", "is", null), eb("views", "<", eb.ref("max_views"))])),
    )
    .executeTakeFirst();
  if (!row) return unknownOrGone(hash);
  const target = await loadSharedTarget(row);
  if (!target) return "gone";
  if (fileId === undefined) return target;
  if (target.file) return target.file.id === fileId ? target : null;
  const entry = target.project?.media.find(({ file }) => file.id === fileId);
  return entry ? { ...target, file: entry.file } : null;
}
