import type { Generated } from "kysely";

/** Row types of every table. Timestamps are ISO-8601 UTC strings: portable and they sort as text. */
export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  created_at: string;
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
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  email: string;
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

export interface Database {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  login_attempts: LoginAttemptsTable;
  feedback: FeedbackTable;
}
