// The AI calls of docs/api.md#every-call, typed, through the one browser API client (refresh-and-replay on 401).
import { voicesOrFallback, type VoiceOption } from "~/common/assistant/voice-options";
import { speakableText } from "~/common/assistant/speech-text";
import type { Translator } from "~/common/i18n/translate";
import { ApiError, apiFetch, apiJson, detailText, errorDetail } from "./api-client";

export async function fetchVoices(signal?: AbortSignal): Promise<VoiceOption[]> {
  const answer = await apiJson<{ voices?: unknown }>("/api/voice/voices", { signal });
  const voices = Array.isArray(answer?.voices) ? answer.voices : [];
  return voices.filter(
    (voice): voice is VoiceOption => typeof voice?.voice_id === "string" && typeof voice?.name === "string",
  );
}

/** The voice list for the assistant's dropdown; the fallback voice in docs/screens.md#error-messages when the call fails. */
export function loadVoiceOptions(signal?: AbortSignal): Promise<VoiceOption[]> {
  return voicesOrFallback(() => fetchVoices(signal));
}

/** `language`: the screen's, for the reply (docs/api.md#every-call); none: English. */
export async function askAssistant(message: string, language?: string): Promise<{ reply: string; provider: string }> {
  const answer = await apiJson<{ reply?: unknown; provider?: unknown }>("/api/assistant/message", {
    body: language ? { message, language } : { message },
  });
  if (typeof answer?.reply !== "string") throw new Error("The assistant answered without a reply");
  return { reply: answer.reply, provider: typeof answer.provider === "string" ? answer.provider : "" };
}

/** A stream's `data:` payloads as they arrive (Server-Sent Events: blank-line separated, "data:" lines). */
export async function* eventStreamData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      pending += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = pending.split(/\r\n|\r|\n/);
      pending = done ? "" : (lines.pop() ?? "");
      for (const line of lines) {
        if (line === "") {
          if (data.length) yield data.join("\n");
          data = [];
        } else if (line.startsWith("data:")) data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
      }
      if (done) break;
    }
    if (data.length) yield data.join("\n");
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * POST /api/assistant/stream {message, conversation_id?, language?}: calls `onText` with the reply so
 * far each time a piece arrives, and resolves with the whole reply once `[DONE]` comes. A refusal
 * (4xx/5xx JSON) or an `{"error"}` event rejects (ApiError / Error with the server's text).
 * `language`: the screen's, so the reply comes in it (the offline assistant's texts, a model's prompt).
 */
export async function streamAssistant(
  message: string,
  onText: (replySoFar: string, provider: string) => void,
  signal?: AbortSignal,
  conversationId?: string,
  language?: string,
): Promise<{ reply: string; provider: string }> {
  const response = await apiFetch("/api/assistant/stream", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    // With a conversation, the question and the whole reply are kept in it (docs/api.md#assistant-conversations).
    body: JSON.stringify({
      message,
      ...(conversationId ? { conversation_id: conversationId } : {}),
      ...(language ? { language } : {}),
    }),
    signal,
  });
  if (!response.ok || !response.body) throw new ApiError(response.status, await errorDetail(response));
  const provider = response.headers.get("X-Assistant-Provider") ?? "";
  let reply = "";
  for await (const data of eventStreamData(response.body)) {
    if (data === "[DONE]") return { reply, provider };
    const event = JSON.parse(data) as { delta?: unknown; error?: unknown };
    if (typeof event.error === "string") throw new Error(event.error);
    if (typeof event.delta === "string") {
      reply += event.delta;
      onText(reply, provider);
    }
  }
  // The stream ended without [DONE]: the reply is not whole.
  throw new Error("The reply was cut off");
}

/** Speech that plays but is not kept (docs/decisions/0042): its URL lives minutes; keepSpokenReply keeps it. */
export interface SpokenReply {
  url: string;
  speechId: string;
}

/**
 * docs/api.md#every-call: POST /voice/generate {text, voice_id, keep: false} -> the url (or audio_url) of speech that
 * plays for a while and is not filed in the library (the assistant's spoken replies).
 */
export async function generateSpeech(text: string, voiceId: string): Promise<SpokenReply> {
  const answer = await apiJson<{ url?: unknown; audio_url?: unknown; speech_id?: unknown }>("/api/voice/generate", {
    body: { text: speakableText(text), voice_id: voiceId, keep: false },
  });
  const url =
    typeof answer?.url === "string" ? answer.url : typeof answer?.audio_url === "string" ? answer.audio_url : null;
  if (!url || typeof answer?.speech_id !== "string") throw new Error("No audio came back");
  return { url, speechId: answer.speech_id };
}

/** "Save to library" for a spoken reply: POST /voice/spoken/{id}/keep -> the library file's name and id. */
export async function keepSpokenReply(speechId: string): Promise<{ name: string; media_id: string }> {
  const answer = await apiJson<{ filename?: unknown; media_id?: unknown }>(
    `/api/voice/spoken/${encodeURIComponent(speechId)}/keep`,
    { method: "POST" },
  );
  if (typeof answer?.media_id !== "string") throw new Error("Nothing was kept");
  return { name: typeof answer.filename === "string" ? answer.filename : answer.media_id, media_id: answer.media_id };
}

export async function sketchToImage(imageData: string, style: string): Promise<string> {
  const answer = await apiJson<{ image?: unknown }>("/api/ai/sketch2image", { body: { image_data: imageData, style } });
  if (typeof answer?.image !== "string" || answer.image === "") throw new Error("No image came back");
  return answer.image;
}

export async function generateImage(prompt: string): Promise<string> {
  const answer = await apiJson<{ image_url?: unknown; url?: unknown }>("/api/creative-tools/image/generate", {
    body: { prompt },
  });
  const url =
    typeof answer?.image_url === "string" ? answer.image_url : typeof answer?.url === "string" ? answer.url : null;
  if (!url) throw new Error("No image came back");
  return url;
}

export interface VideoJobStatus {
  id: string;
  status: string;
  progress: number;
  url: string | null;
  /** The finished clip's file id (null until completed). */
  media_id: string | null;
}

/** docs/api.md#every-call: POST /aivideo/ {prompt} -> id (possibly nested under data). */
export async function startVideo(prompt: string): Promise<string> {
  const answer = await apiJson<{ id?: unknown; data?: { id?: unknown } }>("/api/aivideo/", { body: { prompt } });
  const id = typeof answer?.id === "string" ? answer.id : typeof answer?.data?.id === "string" ? answer.data.id : null;
  if (!id) throw new Error("No job id came back");
  return id;
}

export async function videoStatus(id: string, signal?: AbortSignal): Promise<VideoJobStatus> {
  const answer = await apiJson<Partial<VideoJobStatus>>(`/api/aivideo/status/${encodeURIComponent(id)}`, { signal });
  return {
    id,
    status: typeof answer?.status === "string" ? answer.status : "",
    progress: typeof answer?.progress === "number" ? Math.max(0, Math.min(1, answer.progress)) : 0,
    url: typeof answer?.url === "string" ? answer.url : null,
    media_id: typeof answer?.media_id === "string" ? answer.media_id : null,
  };
}

/** GET /health -> test_mode (the AI video screen's Test Mode badge). */
export async function fetchTestMode(signal?: AbortSignal): Promise<boolean> {
  const answer = await apiJson<{ test_mode?: unknown }>("/api/health", { signal });
  return answer?.test_mode === true;
}

/** A file a generator made and stored as the person's own (a project can attach it by media_id). */
export interface GeneratedFile {
  url: string;
  media_id: string;
  filename: string;
}

function generatedFile(
  answer: { url?: unknown; media_id?: unknown; filename?: unknown } | undefined,
  what: string,
): GeneratedFile {
  if (typeof answer?.url !== "string" || typeof answer.media_id !== "string") throw new Error(`No ${what} came back`);
  return {
    url: answer.url,
    media_id: answer.media_id,
    filename: typeof answer.filename === "string" ? answer.filename : answer.media_id,
  };
}

/** docs/api.md#every-call creative tools (the project editor's generators): POST /creative-tools/{tool}/generate. */
export async function generateScript(prompt: string): Promise<string> {
  const answer = await apiJson<{ text?: unknown }>("/api/creative-tools/assistant/generate", { body: { prompt } });
  if (typeof answer?.text !== "string" || answer.text.trim() === "") throw new Error("No text came back");
  return answer.text;
}

/** `projectId`: the project the file is made for (its provenance names it). */
export async function generateVoiceFile(text: string, projectId?: string): Promise<GeneratedFile> {
  const body = { text: speakableText(text), ...(projectId ? { project_id: projectId } : {}) };
  return generatedFile(await apiJson("/api/creative-tools/voice/generate", { body }), "audio");
}

export async function generateImageFile(prompt: string, projectId?: string): Promise<GeneratedFile> {
  return generatedFile(
    await apiJson("/api/creative-tools/image/generate", {
      body: { prompt, ...(projectId ? { project_id: projectId } : {}) },
    }),
    "image",
  );
}

/** One of the person's video jobs as the AI video screen lists it (GET /api/aivideo). */
export interface ListedVideoJob {
  id: string;
  status: string;
  progress: number;
  position: number | null;
  prompt: string;
  created_at: string;
}

/** The person's video jobs, newest first (docs/api.md#video-jobs-a-person-controls). */
export async function listVideoJobs(signal?: AbortSignal): Promise<ListedVideoJob[]> {
  const answer = await apiJson<ListedVideoJob[]>("/api/aivideo", { signal });
  return Array.isArray(answer) ? answer : [];
}

/** Starts a video job through the creative-tools door; follow it with videoStatus. */
export async function startVideoGeneration(prompt: string): Promise<string> {
  const answer = await apiJson<{ id?: unknown }>("/api/creative-tools/aivideo/generate", { body: { prompt } });
  if (typeof answer?.id !== "string") throw new Error("No job id came back");
  return answer.id;
}

/**
 * A screen's text for an AI call that failed: the failure text in docs/screens.md#error-messages (an English catalogue key), and
 * when the server refused it for the person's AI limits (429), its reason, which says when to try again. Both in the language of
 * the screen's `t`: the reason is the API's English `detail`, read back into the limit and the wait (detailText).
 */
export function aiFailureText(failureText: string, error: unknown, t: Translator["t"]): string {
  return error instanceof ApiError && error.status === 429
    ? `${t(failureText)} ${detailText(t, error.detail)}`
    : t(failureText);
}
