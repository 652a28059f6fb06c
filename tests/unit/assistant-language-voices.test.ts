import { describe, expect, it } from "vitest";
import { EspeakSpeech } from "~/ai/speech/espeak-speech.server";
import { readWavHeader } from "~/ai/speech/wav";
import {
  ESPEAK_ENGLISH_VOICE_NAMES,
  ESPEAK_LANGUAGE_VOICES,
  FALLBACK_VOICE,
  voicesInLanguageFirst,
} from "~/common/assistant/voice-options";
import { LANGUAGE_TAGS } from "~/common/i18n/languages";
import { translatorFor } from "~/lib/i18n/catalogues.server";
import { getTransientSpeech } from "~/models/media/transient-speech.server";
import { askOnScreen } from "~/services/assistant/assistant-screen.server";
import { newUserId } from "../support/user-rows";

/**
 * The voice list offers the screen language's voices first (eSpeak-NG has voices for every screen
 * language), and a reply is spoken in the screen language's voice unless the person chose another.
 */
const speech = new EspeakSpeech();
const ids = (voices: { voice_id: string }[]) => voices.map((voice) => voice.voice_id);

describe("the screen language's voices", () => {
  it("eSpeak-NG lists its English voices first (as before), then a voice for each other screen language", async () => {
    const voices = await speech.listVoices();
    expect(voices[0]).toEqual({ voice_id: "gmw/en-US", name: "English (America)" });
    const english = voices.filter((voice) => voice.voice_id.startsWith("gmw/en"));
    expect(voices.slice(0, english.length)).toEqual(english);
    // Each English voice's name is a catalogue key (the screens show it translated).
    for (const voice of english) expect(ESPEAK_ENGLISH_VOICE_NAMES).toContain(voice.name);
    for (const language of LANGUAGE_TAGS.filter((tag) => tag !== "en")) {
      const own = ESPEAK_LANGUAGE_VOICES[language as keyof typeof ESPEAK_LANGUAGE_VOICES];
      expect(own.length).toBeGreaterThan(0);
      for (const voice of own) expect(voices).toContainEqual(voice);
    }
    expect(voices).toContainEqual({ voice_id: "gmw/de", name: "German" });
    expect(voices).toContainEqual({ voice_id: "sit/cmn", name: "Chinese (Mandarin)" });
  });

  it("each language's voice speaks its language", async () => {
    const samples: Record<string, string> = {
      "gmw/de": "Guten Tag.",
      "jpx/ja": "こんにちは。",
      "sit/cmn": "你好。",
      "sem/ar": "مرحبا.",
    };
    for (const [voice, text] of Object.entries(samples)) {
      const audio = await speech.synthesize(text, voice);
      expect(readWavHeader(audio.bytes)!.dataBytes).toBeGreaterThan(4000);
    }
  });

  it("orders a list with the screen language's voices first, best first, the rest as they were", async () => {
    const voices = await speech.listVoices();
    expect(voicesInLanguageFirst(voices, "en")).toEqual(voices);
    expect(ids(voicesInLanguageFirst(voices, "de")).slice(0, 2)).toEqual(["gmw/de", "gmw/en-US"]);
    expect(ids(voicesInLanguageFirst(voices, "es")).slice(0, 3)).toEqual(["roa/es", "roa/es-419", "gmw/en-US"]);
    expect(ids(voicesInLanguageFirst(voices, "fr")).slice(0, 3)).toEqual(["roa/fr", "roa/fr-BE", "roa/fr-CH"]);
    expect(ids(voicesInLanguageFirst(voices, "pt-BR"))[0]).toBe("roa/pt-BR");
    expect(ids(voicesInLanguageFirst(voices, "ja"))[0]).toBe("jpx/ja");
    expect(ids(voicesInLanguageFirst(voices, "zh-CN"))[0]).toBe("sit/cmn");
    expect(ids(voicesInLanguageFirst(voices, "ar"))[0]).toBe("sem/ar");
    // Nothing lost, nothing doubled.
    expect([...ids(voicesInLanguageFirst(voices, "ar"))].sort()).toEqual([...ids(voices)].sort());
    // Voices that say no language (ElevenLabs, OpenAI, the fallback voice) keep their order.
    const remote = [{ voice_id: "alloy", name: "Alloy" }, { voice_id: "nova", name: "Nova" }, FALLBACK_VOICE];
    expect(voicesInLanguageFirst(remote, "de")).toEqual(remote);
  });

  it("a reply posted without JavaScript is spoken in the screen language's voice unless another was chosen", async () => {
    const userId = await newUserId();
    const spokenVoice = async (language: "en" | "de" | "ja", voiceId: string) => {
      const answer = await askOnScreen(
        userId,
        { question: "hello", voiceId, conversationId: null, autoSpeak: true },
        "Something went wrong.",
        new AbortController().signal,
        translatorFor(language),
      );
      if (!answer.result.ok) throw new Error(answer.result.error);
      const spoken = answer.result.conversation.exchanges.at(-1)!.speech!;
      return (await getTransientSpeech(userId, spoken.speechId))!.voiceId;
    };
    // No voice named (the fallback voice): the screen language's first.
    expect(await spokenVoice("de", "")).toBe("gmw/de");
    expect(await spokenVoice("ja", "")).toBe("jpx/ja");
    expect(await spokenVoice("en", "")).toBe("gmw/en-US");
    // The person's choice wins.
    expect(await spokenVoice("de", "gmw/en-GB-x-rp")).toBe("gmw/en-GB-x-rp");
  });
});
