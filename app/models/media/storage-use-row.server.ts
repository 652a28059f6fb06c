import type { Kysely } from "kysely";
import { compileOnce } from "~/lib/db/compiled-query.server";
import type { Database } from "~/lib/db/db-schema";

/**
 * The storage quota's read (app/models/media/storage-quota.server.ts): the person's counters and their live
 * reservations but one, in one statement compiled once (app/lib/db/compiled-query.server.ts), since every
 * check that adds bytes (each growing autosave among them) runs it.
 */
export const storageUseRow = compileOnce(
  (database: Kysely<Database>, p: { userId: string; liveSince: string; exceptReservation: string }) =>
    database
      .selectFrom("users")
      .select((eb) => [
        "media_bytes",
        "text_bytes",
        "storage_quota_bytes",
        eb
          .selectFrom("storage_reservations")
          .select((inner) => inner.fn.coalesce(inner.fn.sum<number | string>("bytes"), inner.lit(0)).as("reserved"))
          .where("user_id", "=", p.userId)
          .where("updated_at", ">=", p.liveSince)
          .where("id", "!=", p.exceptReservation)
          .as("reserved"),
      ])
      .where("id", "=", p.userId),
);
