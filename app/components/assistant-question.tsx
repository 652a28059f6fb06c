import { useEffect, useState } from "react";
import { Form } from "react-router";
import { loadVoiceOptions, type VoiceOption } from "~/browser/ai-client";
import { useHydrated } from "~/components/use-hydrated";

/** docs/screens.md#screens-and-routes texts of the assistant's voice choice. */
const LOADING_VOICES = "Loading voices...";
const NO_OPTIONS = "No Options";

export type VoicesState = { state: "loading" } | { state: "ready"; voices: VoiceOption[] };

/**
 * The page arrives with the server's list (all there is without JavaScript). Once the screen runs in
 * the browser it asks the API for the list (docs/api.md#every-call) and shows "Loading voices..." (docs/screens.md) while that
 * call runs, then the answer: the voices, "No Options" for none, or the fallback voice on failure.
 */
export function useVoices(serverVoices: VoiceOption[]): VoicesState {
  const hydrated = useHydrated();
  const [voices, setVoices] = useState<VoicesState>({ state: "ready", voices: serverVoices });
  useEffect(() => {
    if (!hydrated) return;
    const controller = new AbortController();
    setVoices({ state: "loading" });
    void loadVoiceOptions(controller.signal).then((list) => {
      if (!controller.signal.aborted) setVoices({ state: "ready", voices: list });
    });
    return () => controller.abort();
  }, [hydrated]);
  return voices;
}

/**
 * The assistant's question form: the question, the voice, Auto-Speak, Ask and Speak Reply. Without
 * JavaScript (no onAsk) it posts to the page's action; Speak Reply needs the browser and a reply (onSpeak).
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
}) {
  const { hydrated, voices, voiceId, asking, speaking, onSpeak } = props;
  const voiceOptions =
    voices.state === "loading" ? (
      <option value="">{LOADING_VOICES}</option>
    ) : voices.voices.length === 0 ? (
      <option value="">{NO_OPTIONS}</option>
    ) : (
      voices.voices.map((voice) => (
        <option key={voice.voice_id || "fallback"} value={voice.voice_id}>
          {voice.name}
        </option>
      ))
    );

  return (
    <Form method="post" className="card form" aria-label="Ask the assistant" onSubmit={props.onAsk}>
      <label>
        Your question
        <textarea
          name="message"
          rows={4}
          maxLength={props.messageMax}
          value={props.question}
          onChange={(event) => props.onQuestion(event.target.value)}
          // Ctrl/Cmd+Enter asks; Enter alone is a new line.
          aria-keyshortcuts="Control+Enter Meta+Enter"
          onKeyDown={(event) => {
            if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey)) return;
            event.preventDefault();
            event.currentTarget.form?.requestSubmit();
          }}
          placeholder="Ask about your content or how a tool works..."
        />
      </label>
      <div className="ai-row">
        <label className="ai-inline-label">
          Voice
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
          Auto-Speak
        </label>
      </div>
      <div className="ai-actions">
        <button type="submit" className="button button-primary" disabled={asking}>
          {asking ? "Asking..." : "Ask"}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => onSpeak?.()}
          disabled={!hydrated || !onSpeak || speaking}
        >
          {speaking ? "Speaking..." : "Speak Reply"}
        </button>
      </div>
    </Form>
  );
}
