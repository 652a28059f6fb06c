import { z } from "zod";
import { lockKey, withoutNul } from "~/lib/db/portable-sql.server";
import { db } from "~/lib/db/db.server";
import { env } from "~/lib/settings/env.server";
import { newId, nowIso } from "~/lib/db/ids.server";
import { isLoopbackAddress } from "~/models/accounts/login-attempt.server";

export const feedbackSchema = z.object({
  // U+0000 dropped from free text (PostgreSQL refuses it in text; both engines store the same).
  name: z
    .string({ error: "Name is required" })
    .overwrite(withoutNul)
    .trim()
    .min(1, "Name is required")
    .max(100, "Name must be at most 100 characters"),
  email: z
    .string({ error: "Email is required" })
    .trim()
    .toLowerCase()
    .min(1, "Email is required")
    .max(254, "Email must be at most 254 characters")
    .pipe(z.email({ error: "Enter a valid email address" })),
  message: z
    .string({ error: "Message is required" })
    .overwrite(withoutNul)
    .trim()
    .min(1, "Message is required")
    .max(5000, "Message must be at most 5000 characters"),
});

export type FeedbackInput = z.infer<typeof feedbackSchema>;

/** Feedback is counted per client address over this sliding window (FEEDBACK_MAX_PER_ADDRESS per window). */
export const FEEDBACK_WINDOW_MINUTES = 60;
const feedbackWindowStart = (now: Date) => new Date(now.getTime() - FEEDBACK_WINDOW_MINUTES * 60_000);

export type FeedbackResult =
  { ok: true; feedback: { id: string } } | { ok: false; reason: "throttled"; retryAfterSeconds: number };

/**
 * Feedback needs no account; when the sender is signed in we remember who it was. Anyone may send it,
 * so each client address may send FEEDBACK_MAX_PER_ADDRESS messages an hour (loopback, this machine,
 * is not counted, as for registrations): the message and its count are written in one transaction
 * that holds a lock on the address, so concurrent sends from one address cannot pass the count
 * together, on SQLite and PostgreSQL alike (the shape of login-attempt.server's beginRegistration).
 * Over the allowance nothing is stored: refused with the seconds until the oldest counted one leaves the window.
 */
export async function sendFeedback(
  input: FeedbackInput,
  userId: string | null,
  clientAddress: string,
  now = new Date(),
): Promise<FeedbackResult> {
  const row = { id: newId(), user_id: userId, ...input, created_at: nowIso(now) };
  if (isLoopbackAddress(clientAddress)) {
    await db.insertInto("feedback").values(row).execute();
    return { ok: true, feedback: { id: row.id } };
  }
  return db.transaction().execute(async (trx) => {
    await lockKey(trx, "feedback_attempts", clientAddress);
    const counted = await trx
      .selectFrom("feedback_attempts")
      .select([(eb) => eb.fn.countAll<number>().as("sent"), (eb) => eb.fn.min("attempted_at").as("oldest")])
      .where("client_address", "=", clientAddress)
      .where("attempted_at", ">", nowIso(feedbackWindowStart(now)))
      .executeTakeFirstOrThrow();
    if (Number(counted.sent) >= env.feedbackMaxPerAddress) {
      const oldest = counted.oldest ? new Date(counted.oldest as string).getTime() : now.getTime();
      const retryAfterSeconds = Math.max(
        1,
        Math.ceil((oldest + FEEDBACK_WINDOW_MINUTES * 60_000 - now.getTime()) / 1000),
      );
      return { ok: false, reason: "throttled", retryAfterSeconds } as const;
    }
    await trx
      .insertInto("feedback_attempts")
      .values({ id: newId(), client_address: clientAddress, attempted_at: nowIso(now) })
      .execute();
    await trx.insertInto("feedback").values(row).execute();
    return { ok: true, feedback: { id: row.id } } as const;
  });
}

export function feedbackThrottledMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many feedback messages from your address. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** Housekeeping: counts older than the window no longer matter. */
export async function pruneFeedbackAttempts(now = new Date()) {
  await db
    .deleteFrom("feedback_attempts")
    .where("attempted_at", "<=", nowIso(feedbackWindowStart(now)))
    .execute();
}

export async function listFeedback(limit = 100) {
  return db
    .selectFrom("feedback")
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/** The name a person last signed their feedback with (the form's default next time), or null. */
export async function lastFeedbackName(userId: string): Promise<string | null> {
  const row = await db
    .selectFrom("feedback")
    .select("name")
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.name ?? null;
}
