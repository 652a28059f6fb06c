import { z } from "zod";
import { withoutNul } from "~/lib/db-dialect.server";
import { db } from "~/lib/db.server";
import { newId, nowIso } from "~/lib/ids.server";

export const feedbackSchema = z.object({
  // U+0000 dropped from free text (PostgreSQL refuses it in text; both engines store the same).
  name: z.string({ error: "Name is required" }).overwrite(withoutNul).trim().min(1, "Name is required").max(100, "Name must be at most 100 characters"),
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

/** Feedback needs no account; when the sender is signed in we remember who it was. */
export async function saveFeedback(input: FeedbackInput, userId: string | null) {
  const row = { id: newId(), user_id: userId, ...input, created_at: nowIso() };
  await db.insertInto("feedback").values(row).execute();
  return row;
}

export async function listFeedback(limit = 100) {
  return db.selectFrom("feedback").selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
}
