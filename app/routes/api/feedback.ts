import { currentUser } from "~/auth/auth.server";
import { apiError, parseApiInput, readJsonBody } from "~/lib/http.server";
import { feedbackSchema, saveFeedback } from "~/models/feedback.server";
import type { Route } from "./+types/feedback";

/** POST /api/feedback {name, email, message}: no sign-in needed; 200 when stored, 422 when invalid. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed");
  const input = parseApiInput(feedbackSchema, await readJsonBody(request));
  const saved = await saveFeedback(input, currentUser(context)?.id ?? null);
  return Response.json({ ok: true, id: saved.id, message: "Feedback received" });
}

export const loader = () => apiError(405, "Method not allowed", { Allow: "POST" });
