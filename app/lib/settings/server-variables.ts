import {
  boolean,
  bytes,
  httpUrl,
  list,
  named,
  nonNegativeNumber,
  oneOf,
  port,
  positiveNumber,
  positiveWhole,
  setting,
  text,
} from "./define";

/**
 * The server's variables by topic (the AI ones are in ai-variables.ts): names, defaults and one-line
 * descriptions, as docs/configuration.md and .env.example show them (`npm run docs:config`).
 */
export const SECRET_MIN_LENGTH = 32;
const MiB = 1024 * 1024;

/** Express's `trust proxy`: off, `true`, a hop count, or addresses / presets such as `loopback`. */
export type TrustProxy = boolean | number | string;

/** Who may create an account (REGISTRATION): anyone, holders of an invitation link, or nobody. */
export const REGISTRATION_MODES = ["open", "invite", "closed"] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

/** Whether people may share links to what they make (SHARING): anyone with the link may open it, or nobody. */
export const SHARING_MODES = ["public", "off"] as const;
export type SharingMode = (typeof SHARING_MODES)[number];

/** An issuer URL as given (its exact text is the issuer identifier, a trailing slash included): https, or http on this machine only. */
function issuerUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.search || url.hash) return undefined;
  if (url.protocol === "https:") return raw;
  return url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname) ? raw : undefined;
}

export const serverVariables = {
  NODE_ENV: text({
    shown: "`production` under `npm start`",
    description: "`production` turns on Secure cookies (see `COOKIE_SECURE`)",
  }),
  PORT: port({ default: 3000, description: "HTTP port of `npm start`" }),
  HOST: named("an address", { default: "0.0.0.0", description: "address to listen on" }),
  TRUST_PROXY: setting<TrustProxy>(
    "true, false, a hop count or addresses",
    (raw) => (raw === "false" ? false : raw === "true" ? true : /^\d+$/.test(raw) ? Number(raw) : raw),
    {
      default: false,
      shown: "off",
      example: "loopback",
      description:
        "trust in proxy headers as Express took it (`true`, a hop count, or addresses such as `loopback`): set it behind a reverse proxy so client addresses (rate limits) are seen correctly; it also decides whether `X-Forwarded-Host` and `X-Forwarded-Proto` count (only from a peer it trusts), in the cross-origin check (scheme and host) and for `Strict-Transport-Security` (sent when the proxy says `https`)",
    },
  ),
  BUILD_DIR: named("a folder", {
    default: "build",
    description:
      "where `react-router build` writes and the server reads the build (the one setting the plain scripts read themselves: they find the others' parsed values in the build)",
  }),
  SHUTDOWN_GRACE_SECONDS: nonNegativeNumber({
    default: 10,
    description:
      "on SIGTERM or SIGINT, how long requests in flight (uploads included) may take to finish before their connections are closed and the server exits",
  }),
  REQUEST_DEADLINE_SECONDS: positiveNumber({
    default: 30,
    description:
      'how long any request but an upload may take to arrive whole, headers and body, counted from the opening of its connection (a later request on a kept-alive connection: from its headers); past it the answer is 408 `{"detail": "The request took too long to arrive"}` and the connection closes. Only the arrival is timed: event streams, downloads and exports take as long as they need',
  }),
  UPLOAD_MIN_BYTES_PER_SECOND: positiveNumber({
    default: 1024,
    shown: "`1024` (1 KiB/s)",
    description:
      "the least average rate an upload (a `multipart/form-data` request) must keep over each `UPLOAD_RATE_WINDOW_SECONDS`; a slower one is refused with 408 and its staged bytes are removed. Uploads have no deadline: a 2 GiB video may take hours",
  }),
  UPLOAD_RATE_WINDOW_SECONDS: positiveNumber({
    default: 30,
    description: "the window that rate is measured over (so a stall, or a byte a minute, is cut within it)",
  }),
  LOG_REQUESTS: setting<boolean>(
    '"1", "true", "0" or "false"',
    (raw) => (/^(1|true)$/i.test(raw) ? true : /^(0|false)$/i.test(raw) ? false : undefined),
    {
      default: true,
      shown: "`1` (on)",
      description:
        "one line per request on standard output: method, path (without its query), status, duration and bytes (server/request-log.ts); `0` turns it off",
    },
  ),
} as const;

export const storageVariables = {
  DATA_DIR: named("a folder", {
    default: "./data",
    description:
      "where every file the app writes lives: database, session secret, media. Made 0700, with the SQLite database, its `-wal`/`-shm` and the session secret 0600, whatever the umask; a folder or files an older start left readable by others are narrowed at start (when the studio's account owns them)",
  }),
  DATABASE_FILE: text({ shown: "`$DATA_DIR/studio.sqlite`", description: "the SQLite database file" }),
  DATABASE_URL: setting<string | null>(
    "a postgres:// or postgresql:// URL",
    (raw) => (/^postgres(ql)?:\/\//i.test(raw) ? raw : undefined),
    {
      default: null,
      example: "postgres://studio:password@localhost:5432/studio",
      description:
        "`postgres://user:password@host:5432/db`: PostgreSQL instead of the SQLite file (see docs/operating.md)",
    },
    { secret: true },
  ),
  STORAGE_URL: text({
    shown: "`file://` (`$DATA_DIR/media`)",
    description:
      "where people's files live: `file:///path` or `s3://bucket?endpoint=…&region=…&force_path_style=true&prefix=…`, credentials from `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` / `AWS_REGION`",
  }),
  INSTANCE_ID: text({
    shown: "host name and port",
    description:
      "names this instance's temporary upload folder (`tmp/<id>/`, cleared at its start); give each instance its own",
  }),
} as const;

export const accountVariables = {
  SESSION_SECRET: setting<string | null>(
    `at least ${SECRET_MIN_LENGTH} characters long`,
    (raw) => (raw.length >= SECRET_MIN_LENGTH ? raw : undefined),
    {
      default: null,
      shown: "generated into `$DATA_DIR/session-secret`",
      description: `signs cookies and access tokens; at least ${SECRET_MIN_LENGTH} characters; the same on every instance`,
    },
    { secret: true },
  ),
  COOKIE_SECURE: boolean({
    shown: "`true` when `NODE_ENV=production`",
    description:
      "set `false` only when serving plain HTTP on a network address (browsers accept Secure cookies on http://localhost). When on, the cookies are named `__Host-session`, `__Host-toast-session` and `__Host-studio_prefs` (Secure, `Path=/`, no `Domain`); off, `__session`, `toast-session` and `studio_prefs`. A cookie under an old name is never read when they are on, only expired",
  }),
  ALLOWED_ORIGINS: list({
    default: [] as string[],
    shown: "none",
    example: "https://studio.example.com",
    description: "extra origins, comma separated, allowed to post forms and API writes",
  }),
  PUBLIC_URL: httpUrl({
    default: null,
    shown: "each request's origin",
    example: "https://studio.example.com",
    description:
      "the address people reach the studio at: single sign-on's redirect URI and the links `npm run admin -- invite` prints are made from it. Unset, the request's own origin counts (a trusted proxy's `X-Forwarded-Proto` and `X-Forwarded-Host` included) and the admin command says `http://localhost:$PORT`. On https every answer carries `Strict-Transport-Security`",
  }),
  OIDC_ISSUER: setting<string | null>(
    "an https URL (http only on this machine: localhost, 127.0.0.1 or [::1])",
    issuerUrl,
    {
      default: null,
      example: "https://id.example.com/realms/studio",
      description:
        "single sign-on with an OpenID Connect provider: the issuer, with `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET`: all three, or none (a partial set stops the server at start). https (plain http only on this machine), written exactly as the provider names itself",
    },
  ),
  OIDC_CLIENT_ID: text({ description: "single sign-on: the client id registered at the provider" }),
  OIDC_CLIENT_SECRET: setting<string | null>(
    "a client secret",
    (raw) => raw,
    { default: null, description: "single sign-on: the client's secret" },
    { secret: true },
  ),
  OIDC_NAME: text({
    shown: "`SSO`",
    example: "Keycloak",
    description: 'what the Login screen\'s link says: "Sign in with {OIDC_NAME}"',
  }),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: positiveWhole({
    default: 10,
    description: "failed logins per account within the window before 429",
  }),
  LOGIN_MAX_FAILURES_PER_ADDRESS: positiveWhole({
    default: 100,
    description:
      "failed logins per client address within the window; past it every login from that address answers 429 with `Retry-After` before any password is hashed. Generous on purpose (a crowd behind one NAT); loopback is not counted (behind a reverse proxy set `TRUST_PROXY`)",
  }),
  LOGIN_FAILURE_WINDOW_MINUTES: positiveWhole({ default: 15, description: "the login rate-limit window" }),
  REGISTRATION: oneOf(REGISTRATION_MODES, {
    default: "open" as RegistrationMode,
    description:
      "who may create an account: `open` (anyone), `invite` (only with a one-use invitation link from `npm run admin -- invite`; without one registering is 403) or `closed` (403). Another value stops the server at start",
  }),
  PSEUDO_LANGUAGE: boolean({
    shown: "off",
    description:
      "offers the pseudo-language `en-XA` (accented, about 35% longer texts) in the language menus, for checking screens during development",
  }),
  SHARING: oneOf(SHARING_MODES, {
    default: "public" as SharingMode,
    description:
      "share links (docs/decisions/0069): `public` (a person may make links anyone can open without an account) or `off` (no new links, the Share controls are hidden and every `/s/` link answers 404; people can still list and revoke their links). Another value stops the server at start",
  }),
  REGISTER_MAX_PER_ADDRESS: positiveWhole({
    default: 20,
    description:
      "registrations per client address per hour before 429 (loopback is not counted: behind a reverse proxy set `TRUST_PROXY`)",
  }),
  FEEDBACK_MAX_PER_ADDRESS: positiveWhole({
    default: 10,
    description:
      "feedback messages per client address per hour (anyone may send them); one more answers 429 with `Retry-After` and nothing is stored (loopback not counted)",
  }),
  SHARE_MAX_REQUESTS_PER_ADDRESS: positiveWhole({
    default: 120,
    description:
      "requests to shared pages and their files (`/s/`) per client address per minute, counted by each instance in its memory; one more answers 429 with `Retry-After` (loopback not counted: behind a reverse proxy set `TRUST_PROXY`)",
  }),
  SHARES_MAX_PER_PERSON: positiveWhole({
    default: 200,
    description:
      "live share links one person may have at once (revoked, expired and used-up ones do not count); the next one is refused with 409 and nothing is made",
  }),
  PASSWORD_HASH_QUEUE_MAX: positiveWhole({
    default: 16,
    description:
      "password hashes (logins and registrations) that may wait for a hashing thread, fewer when hashes are slow (see `PASSWORD_HASH_QUEUE_SECONDS`); past it a login or registration answers 503 with `Retry-After` at once",
  }),
  PASSWORD_HASH_QUEUE_SECONDS: positiveNumber({
    default: 1.5,
    description:
      "the most hashing work that may wait, at the recent time per hash: on a slow or loaded machine fewer than `PASSWORD_HASH_QUEUE_MAX` wait, so a waiting login is answered within about this long",
  }),
  ACCESS_TOKEN_MINUTES: positiveWhole({
    default: 15,
    description:
      "access token lifetime (a logout or a revoked session ends its tokens on the next request, on every instance, whatever this says)",
  }),
  REFRESH_TOKEN_DAYS: positiveWhole({
    default: 30,
    description: "refresh token lifetime (and session cookie max age)",
  }),
} as const;

export const mediaVariables = {
  VOICE_MAX_BYTES: bytes({
    default: 25 * MiB,
    shown: "`26214400` (25 MiB)",
    description: "largest voice clip upload; a bigger one is refused with 413 and nothing is kept",
  }),
  VIDEO_MAX_BYTES: bytes({
    default: 2048 * MiB,
    shown: "`2147483648` (2 GiB)",
    description: "largest video upload (streamed to disk, so memory stays flat); a bigger one is refused with 413",
  }),
  USER_STORAGE_QUOTA_MB: positiveNumber({
    default: 1024,
    shown: "`1024` (1 GiB)",
    description:
      "what one person may store (MiB) unless `npm run admin -- quota` gave them their own, uploads, generations and text together (fractions allowed); an upload, generation or text save past it is refused with 413 before anything is kept",
  }),
  CONTENT_VERSIONS_MAX: positiveWhole({
    default: 50,
    description:
      "versions of one text piece its history keeps (each counts toward the storage quota); past it the oldest autosave versions go first, then the oldest others",
  }),
} as const;
