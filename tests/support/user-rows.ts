import { db } from "~/lib/db/db.server";
import { newId, nowIso } from "~/lib/db/ids.server";

/** A user row inserted directly: password hashing is not what the domain tests are about. */
export async function newUserId(): Promise<string> {
  const id = newId();
  await db
    .insertInto("users")
    .values({ id, email: `${id}@example.com`, password_hash: "x", created_at: nowIso() })
    .execute();
  return id;
}
