import { apiJson } from "./api-client";

/** docs/api.md#assistant-conversations: the assistant's conversations, as the screen uses them with JavaScript. */

/** POST /api/assistant/conversations -> the new, empty conversation (its first question names it). */
export async function startConversation(): Promise<{ id: string; title: string }> {
  return apiJson<{ id: string; title: string }>("/api/assistant/conversations", { body: {} });
}

/** DELETE /api/assistant/conversations/{id}: a conversation that never got its first reply goes again. */
export async function dropConversation(id: string): Promise<void> {
  await apiJson<void>(`/api/assistant/conversations/${encodeURIComponent(id)}`, { method: "DELETE" });
}
