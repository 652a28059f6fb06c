import type { ChatContext, ChatReply, SearchableProject } from "~/ai/chat.server";
import { FAILURE_TEXT } from "~/ai/errors.server";
import { aiProviders } from "~/ai/providers.server";
import { DomainError } from "~/lib/domain-error";
import { CONTENT_PAGE_SIZE, listContent, type ContentItem } from "~/models/content.server";
import { listProjects, type Project } from "~/models/project.server";
import { withProviderFailures } from "./provider-failure.server";

/**
 * The assistant as both doors use it: what the person's question is answered from. Providers know
 * no users; this service reads the person's own content and projects (scoped by their id) for a
 * provider that answers from them (the offline assistant) and passes them in as plain text.
 */

/** How many of the person's items are searched (newest and pinned first), in pages. */
const SEARCHED_ITEMS = 500;

async function searchableItems(userId: string): Promise<ContentItem[]> {
  const items: ContentItem[] = [];
  for (let offset = 0; offset < SEARCHED_ITEMS; offset += CONTENT_PAGE_SIZE) {
    const page = await listContent(userId, { limit: CONTENT_PAGE_SIZE, offset });
    items.push(...page);
    if (page.length < CONTENT_PAGE_SIZE) break;
  }
  return items;
}

/** A project as the search reads it: its description and the names of its attached media. */
export function searchableProject(project: Project): SearchableProject {
  const media = [project.voice_file, project.media.music?.name, project.video_file, project.image_file].filter(Boolean);
  const body = [project.description, media.length ? `Media: ${media.join(", ")}` : ""].filter(Boolean).join(" ");
  return { id: project.id, title: project.title, body, updated_at: project.updated_at };
}

/** The person's own material for a provider that searches it. */
export async function personalContext(userId: string): Promise<ChatContext> {
  const [items, projects] = await Promise.all([searchableItems(userId), listProjects(userId)]);
  return { items, projects: projects.map(searchableProject) };
}

/** The assistant's answer; a provider failure is a DomainError with SPEC §8's text (502/504). */
export async function askAssistant(userId: string, message: string, signal?: AbortSignal): Promise<ChatReply> {
  const provider = aiProviders().chat;
  const context = provider.searchesPersonalContent ? await personalContext(userId) : {};
  return withProviderFailures("chat", () => provider.reply(message, context, signal));
}

/**
 * The assistant's reply in pieces (POST /api/assistant/stream). It resolves once the first piece is
 * in, so a failure before any text is the same DomainError as askAssistant's (502/504, SPEC §8's
 * text); a failure after it is thrown by `pieces` as that DomainError, for the stream to say.
 */
export async function streamAssistant(
  userId: string,
  message: string,
  signal?: AbortSignal,
): Promise<{ provider: string; pieces: AsyncGenerator<{ delta: string }> }> {
  const provider = aiProviders().chat;
  const context = provider.searchesPersonalContent ? await personalContext(userId) : {};
  const iterator = provider.stream(message, context, signal)[Symbol.asyncIterator]();
  const first = await withProviderFailures("chat", () => iterator.next());
  async function* pieces(): AsyncGenerator<{ delta: string }> {
    let done = first.done;
    try {
      if (!first.done) yield { delta: first.value };
      for (;;) {
        const next = await withProviderFailures("chat", () => iterator.next());
        if (next.done) break;
        yield { delta: next.value };
      }
      done = true;
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
    }
  }
  return { provider: provider.id, pieces: pieces() };
}

/** Whether the assistant is the offline one (the screens label it). */
export function assistantIsOffline(): boolean {
  return aiProviders().chat.offline;
}
