import type { ChatContext, ChatReply, SearchableProject } from "~/ai/chat/chat.server";
import { FAILURE_TEXT } from "~/ai/errors.server";
import { searchTerms } from "~/ai/chat/offline-assistant.server";
import { aiProviders } from "~/ai/providers.server";
import { DomainError } from "~/lib/domain-error";
import { appendExchange, requireConversation } from "~/models/assistant/assistant-conversation.server";
import { contextHits } from "~/models/content/content-search.server";
import { listProjects, type Project } from "~/models/projects/project.server";
import { requireStorageLeft } from "~/models/media/storage-quota.server";
import { acquireAiSlot, withAiSlot } from "~/services/ai-limits.server";
import { withProviderFailures } from "~/services/provider-failure.server";
import { isLanguage, type Language, type ScreenLanguage } from "~/common/i18n/languages";
import { isRecord } from "~/lib/screens/validation.server";

/**
 * The assistant as both doors use it: what the person's question is answered from. Providers know
 * no users; this service reads the person's own content and projects (scoped by their id) for a
 * provider that answers from them (the offline assistant) and passes them in as plain text.
 *
 * The context is bounded, whatever the person has stored (decision 0038): the top search hits of the
 * question's words among their items (the content search's index, app/models/content/content-search.server.ts),
 * their most recent projects, each body cut. At most ASSISTANT_CONTEXT.items + .projects entries of at
 * most .bodyChars characters of body each (ASSISTANT_CONTEXT_MAX_BODY_CHARS in all), plus their titles
 * (200 characters at most each).
 */
export const ASSISTANT_CONTEXT = { items: 8, projects: 20, bodyChars: 2000 } as const;
export const ASSISTANT_CONTEXT_MAX_BODY_CHARS =
  (ASSISTANT_CONTEXT.items + ASSISTANT_CONTEXT.projects) * ASSISTANT_CONTEXT.bodyChars;

/** A project as the search reads it: its description and the names of its attached media (cut to the context's body length). */
export function searchableProject(project: Project): SearchableProject {
  const media = [project.voice_file, project.media.music?.name, project.video_file, project.image_file].filter(Boolean);
  const body = [project.description, media.length ? `Media: ${media.join(", ")}` : ""].filter(Boolean).join(" ");
  return {
    id: project.id,
    title: project.title,
    body: body.slice(0, ASSISTANT_CONTEXT.bodyChars),
    updated_at: project.updated_at,
  };
}

/** The person's own material for a provider that searches it, for this question: bounded (ASSISTANT_CONTEXT). */
export async function personalContext(userId: string, message: string): Promise<ChatContext> {
  const [items, projects] = await Promise.all([
    contextHits(userId, searchTerms(message), {
      limit: ASSISTANT_CONTEXT.items,
      bodyChars: ASSISTANT_CONTEXT.bodyChars,
    }),
    listProjects(userId, { limit: ASSISTANT_CONTEXT.projects }),
  ]);
  return { items, projects: projects.map(searchableProject) };
}

/**
 * The language an assistant call asks the reply in: its body's `language` when it is one of the
 * studio's (the screen's, which the assistant widget sends), else none: English, as for an API caller
 * that sends nothing (or a tag the studio does not speak).
 */
export function requestedLanguage(body: unknown): Language | undefined {
  const language = isRecord(body) ? body.language : undefined;
  return isLanguage(language) ? language : undefined;
}

/**
 * What the provider answers from: the person's own material when it searches it, and the language
 * the person reads (the screen's; none from an API caller that sends none: English).
 */
async function chatContext(
  searches: boolean,
  userId: string,
  message: string,
  language: ScreenLanguage | undefined,
): Promise<ChatContext> {
  const context = searches ? await personalContext(userId, message) : {};
  return language ? { ...context, language } : context;
}

/**
 * Before a question asked in a conversation (docs/decisions/0064): the conversation must be the
 * person's (404) and they must have room left for its text (413), so the provider is not asked for
 * an answer that could not be kept.
 */
async function requireConversationRoom(userId: string, conversationId: string | null | undefined): Promise<void> {
  if (!conversationId) return;
  await requireConversation(userId, conversationId);
  await requireStorageLeft(userId);
}

/**
 * The assistant's answer; a provider failure is a DomainError with the text in docs/screens.md#error-messages (502/504).
 * With `conversationId`, the question and the answer are appended to that conversation of the person's.
 * `language`: the screen's, for the reply (the offline assistant's texts, a model's system prompt).
 */
export async function askAssistant(
  userId: string,
  message: string,
  signal?: AbortSignal,
  conversationId?: string | null,
  language?: ScreenLanguage,
): Promise<ChatReply> {
  const provider = aiProviders().chat;
  await requireConversationRoom(userId, conversationId);
  // One of the person's AI slots for the whole answer (429 over the limits: ai-limits.server).
  const answer = await withAiSlot(userId, "chat", async () => {
    const context = await chatContext(provider.searchesPersonalContent, userId, message, language);
    return withProviderFailures("chat", () => provider.reply(message, context, signal), provider.id);
  });
  if (conversationId) await appendExchange(userId, conversationId, { question: message, ...answer });
  return answer;
}

/**
 * The assistant's reply in pieces (POST /api/assistant/stream). It resolves once the first piece is
 * in, so a failure before any text is the same DomainError as askAssistant's (502/504, docs/screens.md#error-messages
 * text); a failure after it is thrown by `pieces` as that DomainError, for the stream to say.
 */
export async function streamAssistant(
  userId: string,
  message: string,
  signal?: AbortSignal,
  conversationId?: string | null,
  language?: ScreenLanguage,
): Promise<{ provider: string; pieces: AsyncGenerator<{ delta: string }> }> {
  const provider = aiProviders().chat;
  await requireConversationRoom(userId, conversationId);
  // One of the person's AI slots, held until the stream ends or the person goes away (429 over the
  // limits). The slot is freed by whichever comes first: the pieces ending (done, failed or returned
  // when the answer is cancelled), the request's signal, or a failure before the answer starts.
  const slot = await acquireAiSlot(userId, "chat");
  const release = () => void slot.release();
  signal?.addEventListener("abort", release, { once: true });
  // Gone already (before the listener): nobody will read the pieces.
  if (signal?.aborted) release();
  let iterator: AsyncIterator<string>;
  let first: IteratorResult<string>;
  try {
    const context = await chatContext(provider.searchesPersonalContent, userId, message, language);
    iterator = provider.stream(message, context, signal)[Symbol.asyncIterator]();
    // The call counts once, until its first piece; the later pieces only tell a failing provider.
    first = await withProviderFailures("chat", () => iterator.next(), provider.id);
  } catch (error) {
    signal?.removeEventListener("abort", release);
    await slot.release();
    throw error;
  }
  async function* pieces(): AsyncGenerator<{ delta: string }> {
    let done = first.done;
    let reply = "";
    try {
      if (!first.done) {
        reply += first.value;
        yield { delta: first.value };
      }
      for (;;) {
        const next = await withProviderFailures("chat", () => iterator.next());
        if (next.done) break;
        reply += next.value;
        yield { delta: next.value };
      }
      done = true;
      // The whole answer is kept with its question before [DONE] (a refusal here is the stream's error event).
      if (conversationId)
        await appendExchange(userId, conversationId, { question: message, reply, provider: provider.id });
    } catch (error) {
      done = true;
      if (error instanceof DomainError) throw error;
      // The person left: nobody to tell.
      if (signal?.aborted) return;
      console.error("[assistant] the reply stream failed", error);
      throw new DomainError(502, FAILURE_TEXT.chat);
    } finally {
      // Stopped early (the person left): the provider stops too.
      if (!done) await iterator.return?.();
      signal?.removeEventListener("abort", release);
      await slot.release();
    }
  }
  return { provider: provider.id, pieces: pieces() };
}

/** Whether the assistant is the offline one (the screens label it). */
export function assistantIsOffline(): boolean {
  return aiProviders().chat.offline;
}
