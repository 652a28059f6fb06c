import { env } from "~/lib/settings/env.server";
import {
  pngDimensions,
  sniffM4a,
  sniffMp3,
  sniffPng,
  sniffVideo,
  sniffWav,
  sniffWebm,
  wavDurationMs,
} from "~/lib/storage/file-signatures";
import { msg } from "~/common/i18n/translate";
import type { MediaKind } from "~/common/media/media-names";

/**
 * What each kind of stored file must be: its size limit and the content its first bytes must show, and
 * what those bytes tell about the file (kept with its row). Uploads and generated files are held to the
 * same rules (app/models/media/media-commit.server.ts), screens state the limits from them.
 */
const MiB = 1024 * 1024;

interface KindRules {
  maxBytes: number;
  /** The Content-Type the first bytes show, or null when they are not this kind of file. */
  sniff: (head: Uint8Array) => string | null;
  unsupportedMessage: string;
}

/** Per kind: size limit (settings VOICE_MAX_BYTES, VIDEO_MAX_BYTES) and what the content must be. */
export const MEDIA_RULES: Record<MediaKind, KindRules> = {
  voice: {
    maxBytes: env.voiceMaxBytes,
    sniff: sniffMp3,
    unsupportedMessage: msg("Only MP3 files allowed"),
  },
  video: {
    maxBytes: env.videoMaxBytes,
    sniff: sniffVideo,
    unsupportedMessage: msg("Unsupported video format: upload an MP4, MOV, WebM, MKV, AVI or another video file"),
  },
  // Files the AI tools generate (app/ai): never uploaded, stored through storeMedia.
  speech: { maxBytes: 200 * MiB, sniff: sniffWav, unsupportedMessage: "Generated speech must be WAV audio" },
  image: { maxBytes: 200 * MiB, sniff: sniffPng, unsupportedMessage: "Generated images must be PNG" },
  aivideo: { maxBytes: 200 * MiB, sniff: sniffVideo, unsupportedMessage: "Generated video must be a video file" },
  sketch: { maxBytes: 200 * MiB, sniff: sniffPng, unsupportedMessage: "Sketch results must be PNG" },
  // Saved to the library from Camera, Camera V2 and Voice memo (POST /api/library/upload).
  photo: { maxBytes: 50 * MiB, sniff: sniffPng, unsupportedMessage: msg("A photo must be a PNG image") },
  clip: {
    maxBytes: env.videoMaxBytes,
    sniff: sniffWebm,
    unsupportedMessage: msg("A camera clip must be a WebM video"),
  },
  memo: {
    maxBytes: env.voiceMaxBytes,
    sniff: sniffM4a,
    unsupportedMessage: msg("A voice memo must be M4A (MP4 audio)"),
  },
};

/** What the first bytes tell about a file, kept with its row (dimensions of PNGs, length of WAVs). */
export interface Described {
  width: number | null;
  height: number | null;
  durationMs: number | null;
}

export function describeHead(head: Uint8Array | null): Described {
  const size = head ? pngDimensions(head) : null;
  return { width: size?.width ?? null, height: size?.height ?? null, durationMs: head ? wavDurationMs(head) : null };
}

/** The kind's content check, keeping the head it judged so the row can describe the file. */
export function inspectKeepingHead(kind: MediaKind) {
  let head: Uint8Array | null = null;
  return {
    inspect: (bytes: Uint8Array) => {
      head = bytes;
      return MEDIA_RULES[kind].sniff(bytes);
    },
    described: () => describeHead(head),
  };
}
