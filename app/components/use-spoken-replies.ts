import { useCallback, useEffect, useRef, useState } from "react";
import { aiFailureText, generateSpeech } from "~/browser/ai-client";
import type { Exchange } from "./assistant-conversation";

/**
 * The assistant's conversation of this visit and its speech (decision 0042): each reply is spoken on
 * request (Auto-Speak, "Speak Reply") as unkept speech, whose player sits under that reply and plays
 * once the audio is there; "Save to library" beside it keeps it. `initial` is what a plain form post
 * rendered (JavaScript off), or nothing.
 */
export function useSpokenReplies(initial: Exchange[], initialSpeechError: string | null, failureText: string) {
  const [exchanges, setExchanges] = useState<Exchange[]>(initial);
  const [speaking, setSpeaking] = useState(false);
  const [speechError, setSpeechError] = useState<string | null>(initialSpeechError);
  const players = useRef(new Map<string, HTMLAudioElement>());
  const [toPlay, setToPlay] = useState<{ exchangeId: string; url: string } | null>(null);

  // Played once React has given the reply's player its new source; autoplay may be refused, then the
  // player is there to press play.
  useEffect(() => {
    if (toPlay)
      void players.current
        .get(toPlay.exchangeId)
        ?.play()
        .catch(() => {});
  }, [toPlay]);

  const player = useCallback((exchangeId: string, element: HTMLAudioElement | null) => {
    if (element) players.current.set(exchangeId, element);
    else players.current.delete(exchangeId);
  }, []);

  /** Adds the exchange, or updates it (a reply growing as it streams); its speech stays. */
  const show = useCallback((exchange: Exchange) => {
    setExchanges((list) => {
      const at = list.findIndex((candidate) => candidate.id === exchange.id);
      if (at === -1) return [...list, exchange];
      const next = list.slice();
      next[at] = { ...list[at], ...exchange, speech: exchange.speech ?? list[at].speech };
      return next;
    });
  }, []);

  const drop = useCallback(
    (exchangeId: string) => setExchanges((list) => list.filter((exchange) => exchange.id !== exchangeId)),
    [],
  );

  /** Speaks the exchange's reply in the voice, unkept, and plays it under that reply. */
  const speak = async (exchange: Exchange, voiceId: string) => {
    if (!exchange.reply.trim()) return;
    setSpeaking(true);
    setSpeechError(null);
    try {
      const spoken = await generateSpeech(exchange.reply, voiceId);
      setExchanges((list) =>
        list.map((candidate) =>
          candidate.id === exchange.id
            ? { ...candidate, speech: { url: spoken.url, speechId: spoken.speechId } }
            : candidate,
        ),
      );
      setToPlay({ exchangeId: exchange.id, url: spoken.url });
    } catch (error) {
      setSpeechError(aiFailureText(failureText, error));
    } finally {
      setSpeaking(false);
    }
  };

  return { exchanges, show, drop, speak, speaking, speechError, player };
}
