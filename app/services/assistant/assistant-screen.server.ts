import { DomainError } from "~/lib/domain-error";
import {
  appendExchange,
  createConversation,
  getConversation,
  listConversations,
  type ConversationSummary,
} from "~/models/assistant/assistant-conversation.server";
import { transientSpeechUrl } from "~/models/media/transient-speech.server";
import {
  exchangesOf,
  type AskResult,
  type ShownConversation,
  type SpokenAudio,
} from "~/common/assistant/assistant-exchanges";
import { speakableText } from "~/common/assistant/speech-text";
import { screenAiFailure } from "~/services/ai-limits.server";
import { askAssistant } from "./assistant.server";
import { keepSpokenReply, speakUnkept } from "~/services/media/generation.server";

/**
 * The assistant screen's work across models (docs/decisions/0064): the person's conversations beside
 * the open one, and, without JavaScript, asking in a conversation (the first question makes it) and
 * keeping a spoken reply. With JavaScript the screen calls the API instead (docs/api.md#assistant-conversations).
 */

/** The screen lists this many conversations, most recently updated first. */
export const SCREEN_CONVERSATIONS = 100;

export interface AssistantView {
  conversations: ConversationSummary[];
  /** The open conversation (?c=), or null for a new one. */
  conversation: ShownConversation | null;
  /** ?c= named no conversation of the person's. */
  missing: boolean;
}

export async function shownConversation(userId: string, id: string): Promise<ShownConversation | null> {
  const conversation = await getConversation(userId, id);
  return conversation
    ? { id: conversation.id, title: conversation.title, exchanges: exchangesOf(conversation.messages) }
    : null;
}

export async function assistantView(userId: string, conversationId: string | null): Promise<AssistantView> {
  const [{ conversations }, conversation] = await Promise.all([
    listConversations(userId, { limit: SCREEN_CONVERSATIONS, offset: 0 }),
    conversationId ? shownConversation(userId, conversationId) : null,
  ]);
  return { conversations, conversation, missing: Boolean(conversationId) && !conversation };
}

export interface ScreenAnswer {
  result: AskResult;
  status?: number;
  headers?: Record<string, string>;
}

/**
 * A question asked by a plain form post: answered, then kept in the conversation (made by the first
 * question), and with Auto-Speak spoken without being kept (docs/decisions/0042). A provider failure
 * is `failureText` (and the AI limits' reason); a conversation that is not the person's, or no room
 * left for the text, says so.
 */
export async function askOnScreen(
  userId: string,
  ask: { question: string; voiceId: string; conversationId: string | null; autoSpeak: boolean },
  failureText: string,
  signal: AbortSignal,
): Promise<ScreenAnswer> {
  const { question, voiceId, conversationId } = ask;
  const refuse = (error: string, status: number, headers?: Record<string, string>): ScreenAnswer => ({
    result: { ok: false, question, voiceId, error, conversationId },
    status,
    headers,
  });
  if (conversationId && !(await getConversation(userId, conversationId))) return refuse("Conversation not found", 404);
  let answer;
  try {
    answer = await askAssistant(userId, question, signal);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const failure = screenAiFailure(failureText, error);
    return refuse(failure.message, failure.status, failure.headers);
  }
  let id = conversationId;
  try {
    id ??= (await createConversation(userId)).id;
    await appendExchange(userId, id, { question, ...answer });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return refuse(error.detail, error.status);
  }
  const conversation = (await shownConversation(userId, id))!;
  let speechError: string | null = null;
  if (ask.autoSpeak) {
    try {
      const spoken = await speakUnkept(userId, speakableText(answer.reply), voiceId || undefined, signal);
      conversation.exchanges.at(-1)!.speech = { url: spoken.url, speechId: spoken.speech_id };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      speechError = screenAiFailure(failureText, error).message;
    }
  }
  return { result: { ok: true, voiceId, conversation, speechError } };
}

/**
 * "Save to library" without JavaScript: keeps the spoken reply of one exchange, and the page shows the
 * conversation again with that reply's player, saved or why not.
 */
export async function keepSpeechOnScreen(
  userId: string,
  keep: { speechId: string; exchangeId: string; conversationId: string; voiceId: string },
): Promise<ScreenAnswer> {
  const conversation = await shownConversation(userId, keep.conversationId);
  if (!conversation)
    return {
      result: { ok: false, question: "", voiceId: keep.voiceId, error: "Conversation not found", conversationId: null },
      status: 404,
    };
  let speech: SpokenAudio;
  let status: number | undefined;
  try {
    const kept = await keepSpokenReply(userId, keep.speechId);
    speech = { url: kept.url, speechId: keep.speechId, saved: kept.filename };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // The reason (expired, past the quota) as the other save buttons show it.
    speech = { url: transientSpeechUrl(keep.speechId), speechId: keep.speechId, saveError: error.detail };
    status = error.status;
  }
  const exchange = conversation.exchanges.find((candidate) => candidate.id === keep.exchangeId);
  if (exchange) exchange.speech = speech;
  return { result: { ok: true, voiceId: keep.voiceId, conversation, speechError: null }, status };
}
