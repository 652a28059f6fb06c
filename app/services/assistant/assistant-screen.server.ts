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
import { CONVERSATION_NOT_FOUND } from "~/common/assistant/assistant-labels";
import { voicesInLanguageFirst } from "~/common/assistant/voice-options";
import { DEFAULT_LANGUAGE, type ScreenLanguage } from "~/common/i18n/languages";
import { createTranslator, type Translator } from "~/common/i18n/translate";
import { screenAiFailure } from "~/services/ai-limits.server";
import { askAssistant } from "./assistant.server";
import { keepSpokenReply, listVoices, speakUnkept } from "~/services/media/generation.server";

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

/** The screen's texts in English (a caller that names no screen language). */
const ENGLISH = createTranslator(DEFAULT_LANGUAGE, {});

/** A failure as the screen says it, in its language: the failure text, and the AI limits' reason. */
function screenFailure(failureText: string, error: DomainError, { t }: Translator) {
  return screenAiFailure(t(failureText), error, t);
}

/**
 * The voice a reply is spoken in when the page named none (the fallback voice): the first of the
 * screen language's voices; none (the provider's first voice) for English, or when the list fails.
 */
async function voiceForLanguage(language: ScreenLanguage, signal: AbortSignal): Promise<string | undefined> {
  if (language === DEFAULT_LANGUAGE) return undefined;
  try {
    return voicesInLanguageFirst(await listVoices(signal), language)[0]?.voice_id;
  } catch {
    return undefined;
  }
}

/**
 * A question asked by a plain form post: answered in the screen's language (`screen`), then kept in
 * the conversation (made by the first question), and with Auto-Speak spoken without being kept
 * (docs/decisions/0042), in the chosen voice (else the screen language's). A provider failure is
 * `failureText` (and the AI limits' reason); a conversation that is not the person's, or no room left
 * for the text, says so; each in the screen's language.
 */
export async function askOnScreen(
  userId: string,
  ask: { question: string; voiceId: string; conversationId: string | null; autoSpeak: boolean },
  failureText: string,
  signal: AbortSignal,
  screen: Translator = ENGLISH,
): Promise<ScreenAnswer> {
  const { question, voiceId, conversationId } = ask;
  const { t } = screen;
  const language = screen.language as ScreenLanguage;
  const refuse = (error: string, status: number, headers?: Record<string, string>): ScreenAnswer => ({
    result: { ok: false, question, voiceId, error, conversationId },
    status,
    headers,
  });
  if (conversationId && !(await getConversation(userId, conversationId))) return refuse(t(CONVERSATION_NOT_FOUND), 404);
  let answer;
  try {
    answer = await askAssistant(userId, question, signal, null, language);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const failure = screenFailure(failureText, error, screen);
    return refuse(failure.message, failure.status, failure.headers);
  }
  let id = conversationId;
  try {
    id ??= (await createConversation(userId)).id;
    await appendExchange(userId, id, { question, ...answer });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return refuse(t(error.detail), error.status);
  }
  const conversation = (await shownConversation(userId, id))!;
  let speechError: string | null = null;
  if (ask.autoSpeak) {
    try {
      const voice = voiceId || (await voiceForLanguage(language, signal));
      const spoken = await speakUnkept(userId, speakableText(answer.reply), voice, signal);
      conversation.exchanges.at(-1)!.speech = { url: spoken.url, speechId: spoken.speech_id };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      speechError = screenFailure(failureText, error, screen).message;
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
      result: { ok: false, question: "", voiceId: keep.voiceId, error: CONVERSATION_NOT_FOUND, conversationId: null },
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
