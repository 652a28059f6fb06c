import type { IconName } from "~/common/icons";

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
export const UPLOAD_SUCCESSFUL = "✅ Upload successful!";

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
  hint: (maxLabel: string) => string;
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
  maxLabel: string;
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
  title: "Voices",
  icon: "mic",
  uploadUrl: "/api/voice/upload",
  uploadSection: "Upload a voice clip",
  fileLabel: "Upload MP3",
  accept: ".mp3,audio/mpeg",
  fileRequired: true,
  hint: (maxLabel) => `MP3 only, up to ${maxLabel}.`,
  listLabel: "Voice files",
  testId: "voice-item",
  renameCancel: true,
  texts: {
    empty: "No voices yet. Upload an MP3!",
    uploadOk: UPLOAD_SUCCESSFUL,
    uploadFailed: "❌ Upload failed",
    uploadFailedPlain: "Upload failed",
    uploadError: "❌ Upload error",
    onlyExtension: "Only MP3 files allowed",
    renamed: "✨ Renamed successfully",
    renameFailed: "Rename failed",
    nameRequired: "Enter a name before saving",
    deleted: "🗑️ File deleted",
    deleteFailed: "Delete failed",
  },
  // The Voices' toasts stay 3 s.
  toastMs: 3000,
};

export const VIDEO_FILES: FileScreenKind = {
  kind: "video",
  path: "/videos",
  title: "Video Hub",
  icon: "film",
  uploadUrl: "/api/videos/upload",
  uploadSection: "Upload a video",
  fileLabel: "Choose a video",
  accept: "video/*",
  fileRequired: false,
  hint: (maxLabel) => `Any video format, up to ${maxLabel}.`,
  listLabel: "Videos",
  testId: "video-item",
  renameCancel: false,
  texts: {
    empty: "No videos uploaded yet.",
    // The product gives videos no success text: the voices' one, so every upload confirms alike.
    uploadOk: UPLOAD_SUCCESSFUL,
    uploadFailed: "Failed to upload video.",
    uploadFailedPlain: "Failed to upload video.",
    uploadError: "Failed to upload video.",
    selectFirst: "Please select a video first.",
    renameFailed: "Rename failed.",
    deleteFailed: "Failed to delete video.",
  },
};
