import type { Generated } from "kysely";
import type {
  AssistantConversationsTable,
  AssistantMessagesTable,
  ContentItemsTable,
  ContentVersionsTable,
  MediaFilesTable,
  ProjectsTable,
  SharesTable,
  TransientSpeechTable,
  VideoJobsTable,
} from "./work-tables";

/**
 * Row types of every table, as the `Database` at the end maps them. Here the people's side: accounts,
 * sign-ins and tokens, the attempts counted against abuse, feedback and each person's limits; what
 * people make and run is in ./work-tables.ts. Timestamps are ISO-8601 UTC strings: portable and they
 * sort as text.
 */
export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  created_at: string;
  /** Counts changes to the person's content_items (triggers of migration 0010): pages built from them are kept until it moves. */
  content_version: Generated<number>;
  /** How many content_items the person has (triggers of migration 0011). */
  content_count: Generated<number>;
  /** Bytes of the person's media_files (triggers of migration 0012). */
  media_bytes: Generated<number>;
  /** UTF-8 bytes of the titles and bodies of the person's content_items (triggers of migrations 0012 and 0024). */
  text_bytes: Generated<number>;
  /** The screens' language the person chose (migration 0030), a tag of app/common/i18n/languages.ts; null: not chosen. */
  language?: string | null;
  /** Set by `npm run admin -- disable` (migration 0015): tokens stop at once, login is refused. */
  disabled_at?: string | null;
  /** The person's own storage quota (`admin quota`); null: USER_STORAGE_QUOTA_MB (bigint: may come back as a string). */
  storage_quota_bytes?: number | string | null;
  /** The person's daily cap on AI requests (`admin ai-limit`); null: AI_DAILY_LIMIT; 0: none. */
  ai_daily_limit?: number | null;
  /** When a token pair was last issued or rotated for the person. */
  last_seen_at?: string | null;
}

/** An invitation link of REGISTRATION=invite (migration 0015): the code only as its SHA-256, used once. */
export interface InvitationsTable {
  id: string;
  code_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_by: string | null;
}

/** Bytes an upload or generation in flight holds against its person's quota (migration 0012). */
export interface StorageReservationsTable {
  id: string;
  user_id: string;
  instance_id: string;
  bytes: number;
  updated_at: string;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  /** Set when the token was exchanged for a new pair; presenting it again is reuse. */
  used_at: string | null;
  revoked_at: string | null;
  /**
   * The pair this token was exchanged for, sealed (AES-256-GCM; app/models/accounts/token-pair.server.ts), so that
   * presenting the spent token again within the grace window answers with the same pair on any
   * instance. Never plaintext; cleared after the window (migration 0007).
   */
  successor_sealed: string | null;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  email: string;
  client_address: string;
  attempted_at: string;
}

/** One registration by a client address (db/migrations/0006_registration_attempts.ts). */
export interface RegistrationAttemptsTable {
  id: string;
  client_address: string;
  attempted_at: string;
}

/** One feedback message sent from a client address (db/migrations/0014_feedback_attempts.ts). */
export interface FeedbackAttemptsTable {
  id: string;
  client_address: string;
  attempted_at: string;
}

export interface FeedbackTable {
  id: string;
  user_id: string | null;
  name: string;
  email: string;
  message: string;
  created_at: string;
}

/** One AI request of a person, any capability (db/migrations/0013_ai_limits.ts; app/models/ai-usage.server.ts). */
export interface AiRequestsTable {
  id: string;
  user_id: string;
  /** The capability asked: chat | speech | sketch | image | video. */
  kind: string;
  started_at: string;
  /** Moved while the request runs; null once it ended. A stale one (its instance died) no longer holds a slot. */
  heartbeat_at: string | null;
  finished_at: string | null;
}

/** One sign-in: a refresh-token family, named and dated for the account screen (db/migrations/0016). Live while not revoked (0018) and a token of the family is. */
export interface SessionsTable {
  /** The refresh-token family's id. */
  id: string;
  user_id: string;
  /** A short label read from the User-Agent at sign-in, e.g. "Chrome on Linux". */
  device: string;
  created_at: string;
  /** Moved at most once a minute while the session is used. */
  last_used_at: string;
  /**
   * When the session was ended (db/migrations/0018): set by every revoke while it holds the row, which
   * a rotation takes too; the per-request check reads it. Null while live.
   */
  revoked_at: string | null;
}

/** A personal API token (db/migrations/0016): only its SHA-256 is stored; revoking deletes the row. */
export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
}

/** A studio server sharing this database, as its heartbeat last wrote it (db/migrations/0031; `admin status`). */
export interface InstancesTable {
  /** INSTANCE_ID, else `<host>-<port>` (app/lib/storage/storage.server.ts instanceIdFor). */
  id: string;
  host: string;
  pid: number;
  version: string;
  started_at: string;
  seen_at: string;
  /** METRICS_PORT, when the instance serves /metrics. */
  metrics_port: number | null;
}

export interface Database {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  login_attempts: LoginAttemptsTable;
  registration_attempts: RegistrationAttemptsTable;
  feedback_attempts: FeedbackAttemptsTable;
  feedback: FeedbackTable;
  content_items: ContentItemsTable;
  media_files: MediaFilesTable;
  video_jobs: VideoJobsTable;
  projects: ProjectsTable;
  storage_reservations: StorageReservationsTable;
  ai_requests: AiRequestsTable;
  invitations: InvitationsTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  transient_speech: TransientSpeechTable;
  assistant_conversations: AssistantConversationsTable;
  assistant_messages: AssistantMessagesTable;
  shares: SharesTable;
  content_versions: ContentVersionsTable;
  instances: InstancesTable;
}
