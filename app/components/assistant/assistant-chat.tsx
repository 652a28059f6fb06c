import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { aiFailureText, streamAssistant } from "~/browser/ai-client";
import type { VoiceOption } from "~/common/assistant/voice-options";
import { dropConversation, startConversation } from "~/browser/conversations-client";
import { OFFLINE_ASSISTANT_ID } from "~/common/assistant/assistant-labels";
import type { Exchange } from "~/common/assistant/assistant-exchanges";
import { AssistantConversation } from "./assistant-conversation-view";
import { AssistantQuestion, useVoices } from "./assistant-question";
import { useSpokenReplies } from "./use-spoken-replies";
import { useT } from "~/components/ui/i18n";
import { DEFAULT_LANGUAGE } from "~/common/i18n/languages";
import { msg } from "~/common/i18n/translate";

/** Who answered a reply, under it (docs/screens.md#screens-and-routes). */
const ANSWERED_BY_OFFLINE = msg("Answered by the offline assistant");
const ANSWERED_BY = msg("Answered by {{provider}}");

/** Names this visit's exchanges (crypto.randomUUID needs a secure context, which plain HTTP on a LAN is not). */
let askedCount = 0;

export interface ChatStart {
  exchanges: Exchange[];
  speechError: string | null;
  error: string | null;
  /** A question the page was posted with that got no answer (it stays in the box). */
  question: string;
  voiceId: string;
}

/**
 * One conversation on the screen: its exchanges, the reply column and the question box. With
 * JavaScript the first question makes the conversation through the API (`onStarted` tells the page),
 * each reply streams in and is kept with its question; the box clears and keeps focus, and the newest
 * question and its reply scroll into view.
 */
export function AssistantChat(props: {
  start: ChatStart;
  conversationId: string | null;
  onStarted: (conversationId: string) => void;
  onAnswered: () => void;
  hydrated: boolean;
  messageMax: number;
  serverVoices: VoiceOption[];
  failureText: string;
}) {
  const { start, hydrated, failureText } = props;
  const { t, language } = useT();
  const voices = useVoices(props.serverVoices, language);
  const [voiceId, setVoiceId] = useState(start.voiceId || props.serverVoices[0]?.voice_id || "");
  const [question, setQuestion] = useState(start.question);
  const [autoSpeak, setAutoSpeak] = useState(true);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(start.error);
  const [conversationId, setConversationId] = useState(props.conversationId);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const column = useRef<HTMLElement>(null);
  const { exchanges, show, drop, speak, speaking, speechError, player, played, silence } = useSpokenReplies(
    start.exchanges,
    start.speechError,
    failureText,
  );
  const answer = exchanges.at(-1);

  // The first voice is chosen once the list is in.
  useEffect(() => {
    if (
      voices.state === "ready" &&
      voices.voices.length > 0 &&
      !voices.voices.some((voice) => voice.voice_id === voiceId)
    ) {
      setVoiceId(voices.voices[0].voice_id);
    }
  }, [voices, voiceId]);

  // A new question in the column: it and its reply come into view (also on a phone, where the column is below the box).
  const asked = exchanges.length;
  useLayoutEffect(() => {
    if (!hydrated || asked === 0) return;
    const newest = column.current?.querySelector<HTMLElement>("[data-newest]");
    const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    newest?.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
  }, [asked, hydrated]);

  const ask = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const message = question.trim();
    // docs/screens.md#validation-rules: an empty or whitespace question is ignored.
    if (!message || asking) return;
    setAsking(true);
    setError(null);
    // Sent: the box clears and keeps focus for the next question; what was playing stops.
    setQuestion("");
    textarea.current?.focus({ preventScroll: true });
    silence();
    const id = `asked-${++askedCount}`;
    let made: string | null = null;
    try {
      let target = conversationId;
      if (!target) {
        made = target = (await startConversation()).id;
        setConversationId(made);
      }
      // The reply grows in the column as the provider streams it, in the screen's language (English
      // is the server's default: it is not sent); Auto-Speak speaks it once it is whole.
      const result = await streamAssistant(
        message,
        (replySoFar, provider) => show({ id, question: message, reply: replySoFar, provider }),
        undefined,
        target,
        language === DEFAULT_LANGUAGE ? undefined : language,
      );
      const whole = { id, question: message, ...result };
      show(whole);
      if (made) props.onStarted(made);
      else props.onAnswered();
      if (autoSpeak) void speak(whole, voiceId);
    } catch (failure) {
      drop(id);
      // A conversation made for this question and left empty goes again.
      if (made) {
        setConversationId(null);
        void dropConversation(made).catch(() => {});
      }
      setQuestion((current) => current || message);
      setError(aiFailureText(failureText, failure, t));
    } finally {
      setAsking(false);
    }
  };

  const answeredBy = (provider: string) =>
    provider === OFFLINE_ASSISTANT_ID ? t(ANSWERED_BY_OFFLINE) : t(ANSWERED_BY, { provider });

  return (
    <div className="ai-chat">
      <section ref={column} className="card ai-reply" aria-label={t("Reply")} aria-live="polite" aria-busy={asking}>
        {exchanges.length > 0 ? (
          <AssistantConversation
            exchanges={exchanges}
            answeredBy={answeredBy}
            speech={{ hydrated, voiceId, conversationId, player, played }}
          />
        ) : null}
        {error ? (
          <p className="message message-error" role="alert">
            {t(error)}
          </p>
        ) : exchanges.length === 0 ? (
          <p className="muted">{t("The reply appears here.")}</p>
        ) : null}
        {speechError ? (
          <p className="message message-error" role="alert">
            {t(speechError)}
          </p>
        ) : null}
      </section>
      <AssistantQuestion
        hydrated={hydrated}
        messageMax={props.messageMax}
        voices={voices}
        question={question}
        onQuestion={setQuestion}
        voiceId={voiceId}
        onVoice={setVoiceId}
        autoSpeak={autoSpeak}
        onAutoSpeak={setAutoSpeak}
        asking={asking}
        speaking={speaking}
        onAsk={hydrated ? ask : undefined}
        onSpeak={answer ? () => void speak(answer, voiceId) : null}
        conversationId={conversationId}
        textareaRef={textarea}
      />
    </div>
  );
}
