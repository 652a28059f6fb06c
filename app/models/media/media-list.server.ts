import { db } from "~/lib/db/db.server";
import { MEDIA_COLUMNS, toFile, type MediaFile } from "./media.server";
import type { MediaKind } from "~/common/media/media-names";

/**
 * A page of the person's files of one kind, newest first (listMedia's order), and how many they have:
 * what GET /api/videos and GET /api/voice/list-files answer, a page at a time.
 */
export async function listMediaPage(
  userId: string,
  kind: MediaKind,
  page: { limit: number; offset: number },
): Promise<{ files: MediaFile[]; total: number }> {
  const [rows, counted] = await Promise.all([
    db
      .selectFrom("media_files")
      .select(MEDIA_COLUMNS)
      .where("user_id", "=", userId)
      .where("kind", "=", kind)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom("media_files")
      .select((eb) => eb.fn.countAll<number | string>().as("total"))
      .where("user_id", "=", userId)
      .where("kind", "=", kind)
      .executeTakeFirstOrThrow(),
  ]);
  return { files: rows.map(toFile), total: Number(counted.total) };
}
