import { useCallback, useEffect, useRef, useState } from "react";
import { aiFailureText, generateSpeech } from "~/browser/ai-client";
import type { Exchange } from "~/common/assistant/assistant-exchanges";
import { useT } from "~/components/ui/i18n";

/**
 * The assistant's conversation on the screen and its speech (decision 0042): each reply is spoken on
 * request (Auto-Speak, "Speak Reply") as unkept speech, whose player sits under that reply and plays
 * once the audio is there; "Save to library" beside it keeps it. `initial` is the stored conversation
 * (with what a plain form post spoke, JavaScript off), or nothing.
 *
 * One voice at a time: the players are one set with one controller. A player that starts pauses every
 * other; a new question, a new reply being spoken and leaving the screen (or the conversation) stop
 * whatever plays.
 */
export function useSpokenReplies(initial: Exchange[], initialSpeechError: string | null, failureText: string) {
  const { t } = useT();
  const [exchanges, setExchanges] = useState<Exchange[]>(initial);
  const [speaking, setSpeaking] = useState(false);
  const [speechError, setSpeechError] = useState<string | null>(initialSpeechError);
  const players = useRef(new Map<string, HTMLAudioElement>());
  // Every player this screen made, so none is left playing after React let go of it.
  const everyPlayer = useRef(new Set<HTMLAudioElement>());
  const [toPlay, setToPlay] = useState<{ exchangeId: string; url: string } | null>(null);

  /** Pauses every player but `keep`. */
  const stopVoices = useCallback((keep?: HTMLAudioElement | null) => {
    for (const element of everyPlayer.current) if (element !== keep && !element.paused) element.pause();
  }, []);

  // Which request to speak is the newest: speech that arrives after a newer one (or a new question) stays silent.
  const turn = useRef(0);
  /** Stops what plays and what is about to. */
  const silence = useCallback(() => {
    turn.current++;
    stopVoices();
  }, [stopVoices]);

  // Leaving the screen (or this conversation) stops what plays.
  useEffect(() => silence, [silence]);

  // Played once React has given the reply's player its new source; autoplay may be refused, then the
  // player is there to press play.
  useEffect(() => {
    if (!toPlay) return;
    const element = players.current.get(toPlay.exchangeId);
    stopVoices(element);
    void element?.play().catch(() => {});
  }, [toPlay, stopVoices]);

  const player = useCallback((exchangeId: string, element: HTMLAudioElement | null) => {
    if (element) {
      players.current.set(exchangeId, element);
      everyPlayer.current.add(element);
    } else players.current.delete(exchangeId);
  }, []);

  /** A player started (by the person or by speaking): the others stop. */
  const played = useCallback((element: HTMLAudioElement) => stopVoices(element), [stopVoices]);

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

  /** Speaks the exchange's reply in the voice, unkept, and plays it under that reply (alone). */
  const speak = async (exchange: Exchange, voiceId: string) => {
    if (!exchange.reply.trim()) return;
    silence();
    const mine = turn.current;
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
      if (mine === turn.current) setToPlay({ exchangeId: exchange.id, url: spoken.url });
    } catch (error) {
      setSpeechError(aiFailureText(failureText, error, t));
    } finally {
      setSpeaking(false);
    }
  };

  return { exchanges, show, drop, speak, speaking, speechError, player, played, silence };
}
