import type { Generated } from "kysely";

/**
 * Row types of what people make and run (app/lib/db/db-schema.ts maps every table to its row): their
 * text pieces and those pieces' kept versions, their files and unkept speech, video jobs, projects,
 * assistant conversations and share links. Timestamps are ISO-8601 UTC strings: portable and they
 * sort as text.
 */
export interface ContentItemsTable {
  id: string;
  user_id: string;
  title: string;
  /** Empty string when the item has no body. */
  body: string;
  /** 0 or 1 (portable); the model turns it into a boolean. */
  pinned: number;
  created_at: string;
  updated_at: string;
}

/** One kept state of a text piece (db/migrations/0021_content_versions.ts; app/models/content/content-version.server.ts). */
export interface ContentVersionsTable {
  id: string;
  content_id: string;
  user_id: string;
  title: string;
  body: string;
  reason: "save" | "autosave" | "restore";
  /** The piece's updated_at of the write that stored this state. */
  created_at: string;
}

export interface MediaFilesTable {
  /** Random id; also the file's storage key (the bytes live under it, never under the name). */
  id: string;
  user_id: string;
  /** "voice" | "video" | "speech" | "image" | "aivideo" | "sketch" | "photo" | "clip" | "memo" (app/common/media/media-names.ts). */
  kind: string;
  /** Display name, unique per user and kind. */
  name: string;
  /** Judged from the file's first bytes when it was stored. */
  content_type: string;
  /** Bytes (bigint column: Postgres answers it as a string, the model turns it into a number). */
  size: number | string;
  created_at: string;
  updated_at: string;
  /** A generated file's prompt or spoken text (db/migrations/0008_library.ts); null otherwise. */
  prompt?: string | null;
  /** A generated file's provenance as JSON ({style, voice, provider, model, source}); null for uploads and older rows. */
  provenance?: string | null;
  /** Image pixels, from the PNG header at save time. */
  width?: number | null;
  height?: number | null;
  /** Audio length when cheap to know at save time (WAV speech). */
  duration_ms?: number | null;
}

/**
 * Speech that is not kept (db/migrations/0017_transient_speech.ts; app/models/media/transient-speech.server.ts):
 * its bytes live in the file store under `id` until `expires_at`; nothing lists or counts it.
 */
export interface TransientSpeechTable {
  /** Random id; also the bytes' storage key (and the media_files id if the clip is kept). */
  id: string;
  user_id: string;
  /** The name the file takes in the library if it is kept. */
  name: string;
  content_type: string;
  /** Bytes (bigint column: Postgres answers it as a string). */
  size: number | string;
  /** The spoken text. */
  prompt: string;
  /** JSON of {style, voice, provider, model, source}, as media_files.provenance. */
  provenance: string;
  voice_id: string;
  duration_ms: number | null;
  created_at: string;
  expires_at: string;
}

/** An AI video job (docs/api.md#entities-and-payloads and docs/screens.md#states-and-transitions); worked by the job runner, see db/migrations/0004_ai.ts. */
export interface VideoJobsTable {
  id: string;
  user_id: string;
  prompt: string;
  /** starting | queued | processing | finishing | completed | error | timeout | cancelled */
  status: string;
  /** 0..1 */
  progress: number;
  /** The provider that works the job, e.g. "local-renderer" or "replicate:owner/model". */
  provider: string;
  /** The remote provider's own job id, kept so a restarted server resumes following it. */
  external_id: string | null;
  /** The finished clip in media_files. */
  media_id: string | null;
  /** Why the job ended in error or timeout (no provider text). */
  error: string | null;
  /** How many times a runner has started the job (a restart counts one more). */
  attempts: number;
  runner_id: string | null;
  heartbeat_at: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** Order of the person's waiting jobs (db/migrations/0022_video_job_control.ts); a new job goes last. */
  queue_position: Generated<number>;
  /** When a runner last claimed the job: the claim goes to the person whose last claim is longest ago. */
  claimed_at: string | null;
}

/** A project (docs/api.md#entities-and-payloads); see db/migrations/0005_projects.ts. */
export interface ProjectsTable {
  id: string;
  user_id: string;
  title: string;
  /** Empty string when the project has no description. */
  description: string;
  /** The attached voice clip or generated speech (media_files.id), null when none. */
  voice_media_id: string | null;
  /** The attached uploaded video or AI video (media_files.id). */
  video_media_id: string | null;
  /** The attached image (media_files.id): a drawing-pad result or a generated image. */
  image_media_id: string | null;
  /** A bundled music track id (demo1..demo3), null when none. */
  music_track: string | null;
  created_at: string;
  updated_at: string;
}

/** The assistant's conversations (db/migrations/0019_assistant_conversations.ts; app/models/assistant/assistant-conversation.server.ts). */
export interface AssistantConversationsTable {
  id: string;
  user_id: string;
  title: string;
  created_at: string;
  updated_at: string;
}

/** One question ("user") or reply ("assistant") of a conversation; `provider` names who answered a reply. */
export interface AssistantMessagesTable {
  id: string;
  conversation_id: string;
  user_id: string;
  role: "user" | "assistant";
  text: string;
  provider: string | null;
  created_at: string;
}

/**
 * A share link (db/migrations/0020_shares.ts; app/models/sharing/share.server.ts): found by the SHA-256 of its
 * token; the token itself only sealed, for its owner's list. `target_id` names a content item, a media
 * file or a project by `kind`.
 */
export interface SharesTable {
  id: string;
  user_id: string;
  kind: "content" | "file" | "project";
  target_id: string;
  token_hash: string;
  token_sealed: string;
  expires_at: string | null;
  max_views: number | null;
  views: Generated<number>;
  revoked_at: string | null;
  created_at: string;
}
