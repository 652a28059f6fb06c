import { useEffect, useState, type RefObject } from "react";
import { Form } from "react-router";
import { loadVoiceOptions } from "~/browser/ai-client";
import { voicesInLanguageFirst, type VoiceOption } from "~/common/assistant/voice-options";
import { msg } from "~/common/i18n/translate";
import { useT } from "~/components/ui/i18n";
import { useHydrated } from "~/components/ui/use-hydrated";

/** docs/screens.md#screens-and-routes texts of the assistant's voice choice. */
const LOADING_VOICES = msg("Loading voices...");
const NO_OPTIONS = msg("No Options");

export type VoicesState = { state: "loading" } | { state: "ready"; voices: VoiceOption[] };

/**
 * The page arrives with the server's list (all there is without JavaScript). Once the screen runs in
 * the browser it asks the API for the list (docs/api.md#every-call) and shows "Loading voices..." (docs/screens.md) while that
 * call runs, then the answer: the voices, "No Options" for none, or the fallback voice on failure.
 * The screen's `language`'s voices come first, as in the server's list (the first is the one chosen).
 */
export function useVoices(serverVoices: VoiceOption[], language: string): VoicesState {
  const hydrated = useHydrated();
  const [voices, setVoices] = useState<VoicesState>({ state: "ready", voices: serverVoices });
  useEffect(() => {
    if (!hydrated) return;
    const controller = new AbortController();
    setVoices({ state: "loading" });
    void loadVoiceOptions(controller.signal).then((list) => {
      if (!controller.signal.aborted) setVoices({ state: "ready", voices: voicesInLanguageFirst(list, language) });
    });
    return () => controller.abort();
  }, [hydrated, language]);
  return voices;
}

/** How the question box sends, said under it: keys need JavaScript; without it, Ask posts the form. */
export const SEND_HINT = msg("Enter sends · Shift+Enter adds a line · Ctrl/Cmd+Enter also sends");
export const SEND_HINT_NO_JS = msg("Ask sends your question.");

/**
 * The assistant's question form: the question, the voice, Auto-Speak, Ask and Speak Reply. Without
 * JavaScript (no onAsk) it posts to the page's action, naming the open conversation; Speak Reply needs
 * the browser and a reply (onSpeak). With JavaScript, Enter (or Ctrl/Cmd+Enter) sends and Shift+Enter
 * adds a line, as the hint under the box says.
 */
export function AssistantQuestion(props: {
  hydrated: boolean;
  messageMax: number;
  voices: VoicesState;
  question: string;
  onQuestion: (question: string) => void;
  voiceId: string;
  onVoice: (voiceId: string) => void;
  autoSpeak: boolean;
  onAutoSpeak: (on: boolean) => void;
  asking: boolean;
  speaking: boolean;
  onAsk: ((event: React.FormEvent<HTMLFormElement>) => void) | undefined;
  onSpeak: (() => void) | null;
  /** The open conversation, or null: the first question makes one. */
  conversationId: string | null;
  textareaRef: RefObject<HTMLTextAreaElement | null>;
}) {
  const { hydrated, voices, voiceId, asking, speaking, onSpeak } = props;
  const { t } = useT();
  const voiceOptions =
    voices.state === "loading" ? (
      <option value="">{t(LOADING_VOICES)}</option>
    ) : voices.voices.length === 0 ? (
      <option value="">{t(NO_OPTIONS)}</option>
    ) : (
      voices.voices.map((voice) => (
        // A voice's name in the screen's language where the catalogue has it (eSpeak-NG's, the fallback voice).
        <option key={voice.voice_id || "fallback"} value={voice.voice_id}>
          {t(voice.name)}
        </option>
      ))
    );

  return (
    <Form
      method="post"
      action={props.conversationId ? `/assistant?c=${encodeURIComponent(props.conversationId)}` : "/assistant"}
      className="card form ai-composer"
      aria-label={t("Ask the assistant")}
      onSubmit={props.onAsk}
    >
      <input type="hidden" name="conversation_id" value={props.conversationId ?? ""} />
      <label>
        {t("Your question")}
        <textarea
          ref={props.textareaRef}
          name="message"
          rows={3}
          maxLength={props.messageMax}
          value={props.question}
          onChange={(event) => props.onQuestion(event.target.value)}
          aria-keyshortcuts={hydrated ? "Enter Control+Enter Meta+Enter" : undefined}
          aria-describedby="ai-send-hint"
          onKeyDown={(event) => {
            // Shift+Enter (and Enter while an input method composes) is a new line; Enter alone or with Ctrl/Cmd sends.
            if (event.key !== "Enter" || event.shiftKey || event.altKey || event.nativeEvent.isComposing) return;
            event.preventDefault();
            event.currentTarget.form?.requestSubmit();
          }}
          placeholder={t("Ask about your content or how a tool works...")}
        />
      </label>
      <p id="ai-send-hint" className="muted ai-send-hint">
        {hydrated ? t(SEND_HINT) : t(SEND_HINT_NO_JS)}
      </p>
      <div className="ai-row">
        <label className="ai-inline-label">
          {t("Voice")}
          <select
            name="voice_id"
            value={voiceId}
            onChange={(event) => props.onVoice(event.target.value)}
            disabled={voices.state === "loading" || (voices.state === "ready" && voices.voices.length === 0)}
            aria-busy={voices.state === "loading"}
          >
            {voiceOptions}
          </select>
        </label>
        <label className="ai-checkbox">
          <input
            type="checkbox"
            name="auto_speak"
            checked={props.autoSpeak}
            onChange={(event) => props.onAutoSpeak(event.target.checked)}
          />
          {t("Auto-Speak")}
        </label>
      </div>
      <div className="ai-actions">
        <button type="submit" className="button button-primary" disabled={asking}>
          {asking ? t("Asking...") : t("Ask")}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => onSpeak?.()}
          disabled={!hydrated || !onSpeak || speaking}
        >
          {speaking ? t("Speaking...") : t("Speak Reply")}
        </button>
      </div>
    </Form>
  );
}
