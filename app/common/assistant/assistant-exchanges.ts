/**
 * The assistant screen's view of a conversation (docs/decisions/0064): each question with the reply it
 * got, oldest first, as the page shows them; made from the stored messages on the server and grown in
 * the browser as replies stream in.
 */

/**
 * A reply's speech: it plays from `url` for a while and is not in the library (docs/decisions/0042)
 * until "Save to library" keeps it. `saved` (the library file's name) and `saveError` come from the
 * page's own action, when the save was a plain form post (JavaScript off).
 */
export interface SpokenAudio {
  url: string;
  /** The unkept clip's id ("Save to library" keeps it by this). */
  speechId: string;
  saved?: string | null;
  saveError?: string | null;
}

/** One question and the reply it got, with its speech once spoken. */
export interface Exchange {
  id: string;
  question: string;
  reply: string;
  provider: string;
  speech?: SpokenAudio | null;
}

/** A stored conversation as the screen shows it. */
export interface ShownConversation {
  id: string;
  title: string;
  exchanges: Exchange[];
}

/** Pairs stored messages (oldest first) into exchanges: each question with the reply after it. */
export function exchangesOf(
  messages: ReadonlyArray<{ id: string; role: "user" | "assistant"; text: string; provider: string | null }>,
): Exchange[] {
  const exchanges: Exchange[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      exchanges.push({ id: message.id, question: message.text, reply: "", provider: "" });
      continue;
    }
    const last = exchanges.at(-1);
    if (last && !last.reply) Object.assign(last, { reply: message.text, provider: message.provider ?? "" });
  }
  return exchanges;
}

/** A conversation as the screen's list names it. */
export interface ListedConversation {
  id: string;
  title: string;
  updated_at: string;
}

/** What a plain form post to the assistant screen answers (JavaScript off). */
export type AssistantActionData =
  | { ok: true; voiceId: string; conversation: ShownConversation; speechError: string | null }
  | { ok: false; question: string; voiceId: string; error: string; conversationId: string | null }
  | { ok: false; intent: "rename"; error: string; conversationId: string };

/** The answer to a question or a save posted to the screen. */
export type AskResult = Exclude<AssistantActionData, { intent: "rename" }>;
