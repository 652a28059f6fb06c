import { generatedName, mediaUrl, slugOf, storeGenerated } from "~/models/media/ai-media.server";
import { keepTransientSpeech, storeTransientSpeech, transientSpeechUrl } from "~/models/media/transient-speech.server";
import { requireStorageLeft } from "~/models/media/storage-quota.server";
import { ProviderError } from "~/ai/errors.server";
import { DomainError } from "~/lib/domain-error";
import { UNKNOWN_VOICE_TEXT } from "~/ai/inputs.server";
import { aiProviders, STOCK_PHOTO_PROVIDER_ID } from "~/ai/providers.server";
import { stockPhotoSearchUrl } from "~/common/media/stock-photo";
import type { ProvenanceSource } from "~/common/media/library-rules";
import type { SketchStyle } from "~/common/media/sketch-styles";
import type { Voice } from "~/ai/speech/speech.server";
import { voicesOrFallback } from "~/common/assistant/voice-options";
import { withProviderFailures } from "~/services/provider-failure.server";
import { withAiSlot } from "~/services/ai-limits.server";

/**
 * The AI capabilities as the screens and the API use them: provider call, then the result stored as
 * the person's file. Both doors (screens' actions and /api routes) call these; neither holds the rules.
 * A provider failure leaves as a DomainError with the text in docs/screens.md#error-messages (502/503/504, see provider-failure).
 */
/**
 * A provider id as the adapters spell it ("openai:tts-1", "replicate:owner/model", "espeak-ng") as
 * the provenance's provider and model: the part before the first colon, and the rest (or null).
 */
export function providerAndModel(providerId: string): { provider: string; model: string | null } {
  const colon = providerId.indexOf(":");
  return colon === -1
    ? { provider: providerId, model: null }
    : { provider: providerId.slice(0, colon), model: providerId.slice(colon + 1) || null };
}

/** The code of speak's 422 for a voice the provider does not have. */
export const UNKNOWN_VOICE = "unknown_voice";

export function listVoices(signal?: AbortSignal): Promise<Voice[]> {
  const provider = aiProviders().speech;
  return withProviderFailures("speech", () => provider.listVoices(signal), provider.id);
}

/** How long a page waits for the voice list before it shows the fallback voice instead. */
export const SCREEN_VOICES_WAIT_MS = 5000;

/**
 * The voices a screen renders on the server (so the choice works without JavaScript): the provider's
 * list, or the fallback voice in docs/screens.md#error-messages when listing fails or takes longer than `waitMs`.
 */
export function voicesForScreen(
  signal?: AbortSignal,
  waitMs = SCREEN_VOICES_WAIT_MS,
  list = listVoices,
): Promise<Voice[]> {
  return voicesOrFallback(
    () => {
      const wait = AbortSignal.timeout(waitMs);
      // Raced as well as signalled: a provider that ignores the signal must not hold the page either.
      const overdue = new Promise<never>((_resolve, reject) =>
        wait.addEventListener("abort", () => reject(wait.reason), { once: true }),
      );
      return Promise.race([list(signal ? AbortSignal.any([signal, wait]) : wait), overdue]);
    },
    (error) =>
      console.error(`[ai] voice list for the page failed: ${error instanceof Error ? error.message : String(error)}`),
  );
}

/**
 * Speaks `text` in the voice (the first voice when none is named) in one of the person's AI slots (429
 * over the limits: ai-limits.server), and says how it was made (the file's provenance).
 */
async function synthesize(
  userId: string,
  text: string,
  voiceId: string | undefined,
  signal?: AbortSignal,
  source?: ProvenanceSource,
) {
  const provider = aiProviders().speech;
  const { voice, audio } = await withAiSlot(userId, "speech", () =>
    withProviderFailures(
      "speech",
      async () => {
        const voices = await provider.listVoices(signal);
        const voice = voiceId ? voices.find((candidate) => candidate.voice_id === voiceId) : voices[0];
        if (!voice) {
          if (voiceId) throw new DomainError(422, UNKNOWN_VOICE_TEXT, { code: UNKNOWN_VOICE });
          throw new ProviderError("speech", provider.id, "bad_response", "the provider lists no voices");
        }
        return { voice, audio: await provider.synthesize(text, voice.voice_id, signal) };
      },
      provider.id,
    ),
  );
  const provenance = {
    prompt: text,
    voice: voice.name && voice.name !== voice.voice_id ? `${voice.name} (${voice.voice_id})` : voice.voice_id,
    ...providerAndModel(provider.id),
    ...(source ? { source } : {}),
  };
  return { voice, bytes: audio.bytes, provenance, label: `speech-${slugOf(text, 30)}`, provider: provider.id };
}

/** Speaks `text` in the voice (the first voice when none is named) and stores the audio as the person's file. */
export async function speak(
  userId: string,
  text: string,
  voiceId: string | undefined,
  signal?: AbortSignal,
  source?: ProvenanceSource,
) {
  // Past the storage quota nothing is generated (413 before the provider is asked).
  await requireStorageLeft(userId);
  const spoken = await synthesize(userId, text, voiceId, signal, source);
  const stored = await storeGenerated(userId, "speech", spoken.bytes, spoken.label, spoken.provenance);
  return {
    url: stored.url,
    media_id: stored.file.id,
    filename: stored.file.name,
    voice_id: spoken.voice.voice_id,
    provider: spoken.provider,
  };
}

/**
 * Speaks `text` without keeping it (the assistant's replies; docs/decisions/0042): the audio plays from
 * a short-lived URL of its owner's (`expires_at`), is never a library file and counts toward no quota,
 * so a full library does not silence the assistant. The same AI limits as speak. "Save to library"
 * keeps it with keepSpokenReply.
 */
export async function speakUnkept(userId: string, text: string, voiceId: string | undefined, signal?: AbortSignal) {
  const spoken = await synthesize(userId, text, voiceId, signal);
  const clip = await storeTransientSpeech(userId, spoken.bytes, {
    name: generatedName(spoken.label),
    voiceId: spoken.voice.voice_id,
    provenance: spoken.provenance,
  });
  return {
    url: transientSpeechUrl(clip.id),
    speech_id: clip.id,
    expires_at: clip.expiresAt,
    voice_id: spoken.voice.voice_id,
    provider: spoken.provider,
  };
}

/**
 * "Save to library" for unkept speech: the clip becomes the person's speech file, the very bytes that
 * were heard (no second call to the provider, no AI request counted). 404 once it expired, 413 past the
 * quota (it stays unkept). `created` is false when it had been kept already.
 */
export async function keepSpokenReply(userId: string, speechId: string) {
  const kept = await keepTransientSpeech(userId, speechId);
  return {
    url: mediaUrl(kept.file.id),
    media_id: kept.file.id,
    filename: kept.file.name,
    voice_id: kept.voiceId,
    created: kept.created,
  };
}

/** The sketch restyled (offline) or redrawn by the image model, stored as the person's image. */
export async function sketchToImage(userId: string, png: Buffer, style: SketchStyle, signal?: AbortSignal) {
  const provider = aiProviders().sketch;
  await requireStorageLeft(userId);
  const image = await withAiSlot(userId, "sketch", () =>
    withProviderFailures("sketch", () => provider.stylise(png, style, signal), provider.id),
  );
  // Kind "sketch": the library tells drawing-pad results from prompted images.
  const stored = await storeGenerated(userId, "sketch", image.bytes, `sketch-${style}`, {
    style,
    ...providerAndModel(provider.id),
    source: { type: "sketch", id: null },
  });
  return {
    url: stored.url,
    media_id: stored.file.id,
    filename: stored.file.name,
    provider: provider.id,
    offline: provider.offline,
  };
}

/** Whether a real image model is configured (the image screen shows the stock-photo link otherwise in docs/screens.md). */
export function imageProviderConfigured(): boolean {
  return aiProviders().image !== null;
}

export const NO_IMAGE_PROVIDER =
  "No image model is configured: set AI_IMAGE_PROVIDER (openai, automatic1111 or comfyui) and AI_IMAGE_BASE_URL, or AI_BASE_URL and AI_IMAGE_MODEL, to generate images.";

/**
 * The creative-tools door's image: generated and stored when an image model is configured, otherwise
 * the stock-photo link in docs/screens.md built from the prompt (as the image screen does; nothing is fetched or stored).
 */
export async function imageOrStockPhoto(
  userId: string,
  prompt: string,
  signal?: AbortSignal,
  source?: ProvenanceSource,
) {
  if (!aiProviders().image)
    return { stockPhoto: true as const, url: stockPhotoSearchUrl(prompt), provider: STOCK_PHOTO_PROVIDER_ID };
  return { stockPhoto: false as const, ...(await generateImage(userId, prompt, signal, source)) };
}

/** A generated image from the prompt, stored as the person's image; 503 (not_configured) without an image model. */
export async function generateImage(userId: string, prompt: string, signal?: AbortSignal, source?: ProvenanceSource) {
  const provider = aiProviders().image;
  // Counted as a request that found no provider (the metrics' not_configured), then the 503.
  if (!provider)
    return withProviderFailures(
      "image",
      () => Promise.reject(new ProviderError("image", "none", "not_configured", NO_IMAGE_PROVIDER)),
      "none",
    );
  await requireStorageLeft(userId);
  const image = await withAiSlot(userId, "image", () =>
    withProviderFailures("image", () => provider.generate(prompt, signal), provider.id),
  );
  const stored = await storeGenerated(userId, "image", image.bytes, `image-${slugOf(prompt)}`, {
    prompt,
    ...providerAndModel(provider.id),
    ...(source ? { source } : {}),
  });
  return { url: stored.url, media_id: stored.file.id, filename: stored.file.name, provider: provider.id };
}
