import { Form, Link } from "react-router";
import { keepSpokenReply } from "~/browser/ai-client";
import { Icon } from "~/components/ui/icon";
import type { Exchange, SpokenAudio } from "~/common/assistant/assistant-exchanges";
import { SAVE_FAILED, SaveToLibrary } from "~/components/media/save-to-library";
import { useT } from "~/components/ui/i18n";

export interface ConversationSpeech {
  /** With JavaScript: "Save to library" calls the API; without, it is a form posted to the page. */
  hydrated: boolean;
  /** The voice asked with (the no-JS save form carries it back, so the page comes back as it was). */
  voiceId: string;
  /** The stored conversation (the no-JS save form names it and the exchange). */
  conversationId: string | null;
  /** Hands each reply's player to the page, which plays it once spoken. */
  player: (exchangeId: string, element: HTMLAudioElement | null) => void;
  /** A player started: the page stops the others (one voice at a time). */
  played: (element: HTMLAudioElement) => void;
}

/**
 * The conversation, oldest first: each question above its reply and who answered it,
 * then, once spoken, the reply's player and "Save to library". The newest reply is the one that grows
 * while it streams (data-testid assistant-reply); its player is data-testid reply-audio.
 */
export function AssistantConversation({
  exchanges,
  answeredBy,
  speech,
}: {
  exchanges: Exchange[];
  answeredBy: (provider: string) => string;
  speech: ConversationSpeech;
}) {
  const { t } = useT();
  return (
    <ol className="ai-conversation" aria-label={t("Conversation")}>
      {exchanges.map((exchange, index) => {
        const newest = index === exchanges.length - 1;
        return (
          <li key={exchange.id} className="ai-exchange" data-newest={newest || undefined}>
            <p className="ai-question">
              <span className="visually-hidden">{t("You asked:")} </span>
              {exchange.question}
            </p>
            <p className="ai-reply-text" data-testid={newest ? "assistant-reply" : undefined}>
              {exchange.reply}
            </p>
            <p className="muted ai-reply-meta">{answeredBy(exchange.provider)}</p>
            {exchange.speech ? (
              <div className="ai-spoken">
                <audio
                  ref={(element) => speech.player(exchange.id, element)}
                  controls
                  preload="auto"
                  onPlay={(event) => speech.played(event.currentTarget)}
                  src={exchange.speech.url}
                  aria-label={
                    newest
                      ? t("The reply, spoken")
                      : t('The reply to "{{question}}", spoken', { question: exchange.question.slice(0, 60) })
                  }
                  data-testid={newest ? "reply-audio" : undefined}
                />
                <KeepSpeech exchange={exchange} spoken={exchange.speech} speech={speech} />
              </div>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

/**
 * "Save to library" for one spoken reply. With JavaScript: the shared button (a toast, then "In your
 * library" and a link). Without: a small form posted to the page's action (intent keep_speech) naming
 * the conversation and the exchange, so the page comes back with them and says it is in the library.
 */
function KeepSpeech({
  exchange,
  spoken,
  speech,
}: {
  exchange: Exchange;
  spoken: SpokenAudio;
  speech: ConversationSpeech;
}) {
  const { t } = useT();
  if (spoken.saved) {
    return (
      <p className="message message-success ai-spoken-saved" role="status">
        <Icon name="check" />
        {t("In your library: {{name}}", { name: spoken.saved })}{" "}
        <Link className="button button-small button-ghost" to="/library">
          {t("Open library")}
        </Link>
      </p>
    );
  }
  if (speech.hydrated) return <SaveToLibrary key={spoken.speechId} save={() => keepSpokenReply(spoken.speechId)} />;
  return (
    <>
      <Form method="post" className="ai-keep-form">
        <input type="hidden" name="intent" value="keep_speech" />
        <input type="hidden" name="speech_id" value={spoken.speechId} />
        <input type="hidden" name="exchange_id" value={exchange.id} />
        <input type="hidden" name="conversation_id" value={speech.conversationId ?? ""} />
        <input type="hidden" name="voice_id" value={speech.voiceId} />
        <button type="submit" className="button button-small">
          {t("💾 Save to library")}
        </button>
      </Form>
      {spoken.saveError ? (
        <p className="message message-error" role="alert">
          {t(SAVE_FAILED)}
          <span className="message-detail">{t(spoken.saveError)}</span>
        </p>
      ) : null}
    </>
  );
}
