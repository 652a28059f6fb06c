import { providerErrorResponse } from "~/ai/errors.server";
import { assistantMessageSchema } from "~/ai/inputs.server";
import { askAssistant } from "~/services/assistant.server";
import { requireApiUser } from "~/auth/auth.server";
import { apiError, parseApiInput, readJsonBody } from "~/lib/http.server";
import type { Route } from "./+types/assistant.message";

/**
 * POST /api/assistant/message {message} -> {reply, provider}. Blank -> 422. A provider failure ->
 * 502/504 {"detail": "Something went wrong."}. provider "offline-assistant" marks the offline answer.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed", { Allow: "POST" });
  const user = await requireApiUser(context, request);
  const { message } = parseApiInput(assistantMessageSchema, await readJsonBody(request));
  try {
    const answer = await askAssistant(user.id, message, request.signal);
    return Response.json({ reply: answer.reply, provider: answer.provider }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return providerErrorResponse(error, "chat");
  }
}

export const loader = () => apiError(405, "Method not allowed", { Allow: "POST" });
