import type { IconName } from "~/common/icons";
import { msg } from "~/common/i18n/translate";

/**
 * The two file screens, Voices (components/media/voice-list.tsx) and the Video Hub (components/media/video-list.tsx):
 * what differs between them, every text included. Their one loader and action
 * (services/media/file-screen-action.server.ts) and their shared rename and delete (components/media/file-actions.tsx)
 * read it.
 */

/**
 * The upload success, said alike by every upload (Voices, Video Hub, Library): a toast with JavaScript,
 * the flash message of the redirect without it.
 */
export const UPLOAD_SUCCESSFUL = msg("✅ Upload successful!");

export interface FileScreenKind {
  kind: "voice" | "video";
  /** The screen's URL (its action takes rename and delete; its plain-form upload too). */
  path: string;
  title: string;
  icon: IconName;
  uploadUrl: string;
  uploadSection: string;
  fileLabel: string;
  accept: string;
  /** Whether the browser asks for a file before the form is sent (Voices) or the screen says so (Video Hub). */
  fileRequired: boolean;
  /** The line under the form: a catalogue text with the limit as `{{limit}}`. */
  hint: string;
  listLabel: string;
  testId: string;
  /** Whether the rename form offers Cancel (Voices); the Video Hub's ends with Escape or a blank name. */
  renameCancel: boolean;
  texts: {
    empty: string;
    /** The same for every upload: UPLOAD_SUCCESSFUL. */
    uploadOk: string;
    uploadFailed: string;
    /** A plain form's failed upload (JavaScript off). */
    uploadFailedPlain: string;
    /** The upload never got an answer. */
    uploadError: string;
    selectFirst?: string;
    onlyExtension?: string;
    /** Unset: a rename succeeds without a word (and a plain form just comes back). */
    renamed?: string;
    renameFailed: string;
    /** Set when a blank name is refused with this text; unset when a blank name is ignored. */
    nameRequired?: string;
    deleted?: string;
    deleteFailed: string;
  };
  /** How long the kind's toasts stay (Voices: 3 s); the app's default otherwise. */
  toastMs?: number;
}

export interface ListedFile {
  name: string;
  size: number;
  updatedAt?: string;
}

/** What a file screen's loader gives its list (routes/file-screens.server.ts). */
export interface FileScreenData {
  files: ListedFile[];
  maxBytes: number;
  /** Without JavaScript, "Rename" is a link to ?rename={name}: that row shows its form. */
  renaming: string | null;
  /** Without JavaScript, Delete asks first on ?delete={name}: the file it asks about. */
  confirming?: string | null;
  /** The storage quota's use, shown as a meter under the upload form (components/shell/storage-meter.tsx). */
  usage?: { usedBytes: number; quotaBytes: number; textBytes: number };
}

/** What the screen's action answers (a fetcher reads it; a plain form gets it back on a failure). */
export type FileAnswer = {
  intent: "upload" | "rename" | "delete" | null;
  name?: string;
  newName?: string;
  ok: boolean;
  message: string;
  detail?: string;
};

export const VOICE_FILES: FileScreenKind = {
  kind: "voice",
  path: "/voices",
  title: msg("Voices"),
  icon: "mic",
  uploadUrl: "/api/voice/upload",
  uploadSection: msg("Upload a voice clip"),
  fileLabel: msg("Upload MP3"),
  accept: ".mp3,audio/mpeg",
  fileRequired: true,
  hint: msg("MP3 only, up to {{limit}}."),
  listLabel: msg("Voice files"),
  testId: "voice-item",
  renameCancel: true,
  texts: {
    empty: msg("No voices yet. Upload an MP3!"),
    uploadOk: UPLOAD_SUCCESSFUL,
    uploadFailed: msg("❌ Upload failed"),
    uploadFailedPlain: msg("Upload failed"),
    uploadError: msg("❌ Upload error"),
    onlyExtension: msg("Only MP3 files allowed"),
    renamed: msg("✨ Renamed successfully"),
    renameFailed: msg("Rename failed"),
    nameRequired: msg("Enter a name before saving"),
    deleted: msg("🗑️ File deleted"),
    deleteFailed: msg("Delete failed"),
  },
  // The Voices' toasts stay 3 s.
  toastMs: 3000,
};

export const VIDEO_FILES: FileScreenKind = {
  kind: "video",
  path: "/videos",
  title: msg("Video Hub"),
  icon: "film",
  uploadUrl: "/api/videos/upload",
  uploadSection: msg("Upload a video"),
  fileLabel: msg("Choose a video"),
  accept: "video/*",
  fileRequired: false,
  hint: msg("Any video format, up to {{limit}}."),
  listLabel: msg("Videos"),
  testId: "video-item",
  renameCancel: false,
  texts: {
    empty: msg("No videos uploaded yet."),
    // The product gives videos no success text: the voices' one, so every upload confirms alike.
    uploadOk: UPLOAD_SUCCESSFUL,
    uploadFailed: msg("Failed to upload video."),
    uploadFailedPlain: msg("Failed to upload video."),
    uploadError: msg("Failed to upload video."),
    selectFirst: msg("Please select a video first."),
    renameFailed: msg("Rename failed."),
    deleteFailed: msg("Failed to delete video."),
  },
};
