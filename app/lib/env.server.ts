import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { makePrivateDir, makePrivateFiles } from "./private-files.server";

/**
 * Every setting the server reads from its environment, in one zod schema, parsed once at start
 * (README "Configuration" lists them; .env.example too). A bad value stops the server with one message
 * naming every bad variable. `parseSettings` is pure (no files, no process.env unless given), so tests
 * and app/ai/config.server.ts can parse any record; `env` is the process's settings, parsed once when
 * this module is first imported (the production server imports the build, and so this, before it
 * listens).
 *
 * The front door (server/, compiled into the build) and scripts/start.mjs read nothing themselves but
 * BUILD_DIR (to find the build): the rest reaches them through the build (`entry.module.settings`).
 */

export const SECRET_MIN_LENGTH = 32;
const MiB = 1024 * 1024;

/** A variable's text, trimmed; empty counts as unset. */
const optionalText = z
  .string()
  .optional()
  .transform((value) => {
    const trimmed = value?.trim();
    return trimmed ? trimmed : null;
  });

/**
 * A variable parsed by `parse` (undefined = bad value: "NAME must be <expected>, got "..."");
 * unset or empty gives `fallback`.
 */
function setting<T>(fallback: T, expected: string, parse: (raw: string) => T | undefined, { secret = false } = {}) {
  return z
    .string()
    .optional()
    .transform((value, context): T => {
      const raw = value?.trim();
      if (raw === undefined || raw === "") return fallback;
      const parsed = parse(raw);
      if (parsed === undefined) {
        context.addIssue({ code: "custom", message: secret ? `must be ${expected}` : `must be ${expected}, got "${value}"` });
        return z.NEVER;
      }
      return parsed;
    });
}

const number = (raw: string) => Number(raw);
const positiveWhole = (fallback: number) =>
  setting(fallback, "a positive whole number", (raw) => {
    const value = number(raw);
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  });
const positiveNumber = (fallback: number) =>
  setting(fallback, "a positive number", (raw) => {
    const value = number(raw);
    return Number.isFinite(value) && value > 0 ? value : undefined;
  });
const nonNegativeNumber = (fallback: number) =>
  setting(fallback, "a number of at least 0", (raw) => {
    const value = number(raw);
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  });
const bytes = (fallback: number) =>
  setting(fallback, "a positive whole number of bytes", (raw) => {
    const value = number(raw);
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  });
const boolean = setting<boolean | null>(null, '"true" or "false"', (raw) =>
  raw.toLowerCase() === "true" ? true : raw.toLowerCase() === "false" ? false : undefined,
);
const httpUrl = (fallback: string | null) =>
  setting(fallback, "an http(s) URL", (raw) => {
    try {
      const url = new URL(raw);
      if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    } catch {
      return undefined;
    }
    return raw.replace(/\/+$/, "");
  });
const list = (fallback: string[] | null) =>
  setting(fallback, "a comma-separated list", (raw) =>
    raw
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  );

/** Express's `trust proxy`: off, `true`, a hop count, or addresses / presets such as `loopback`. */
export type TrustProxy = boolean | number | string;
const trustProxy = setting<TrustProxy>(false, "true, false, a hop count or addresses", (raw) => {
  if (raw === "false") return false;
  if (raw === "true") return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
});

/** An issuer URL as given (its exact text is the issuer identifier, a trailing slash included): https, or http on this machine only. */
const oidcIssuer = setting<string | null>(null, "an https URL (http only on this machine: localhost, 127.0.0.1 or [::1])", (raw) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.search || url.hash) return undefined;
  if (url.protocol === "https:") return raw;
  return url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname) ? raw : undefined;
});

/** The settings single sign-on needs together (README "Single sign-on (OpenID Connect)"). */
const OIDC_TOGETHER = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const;

const port = setting(3000, "a port number (0-65535)", (raw) => {
  const value = number(raw);
  return Number.isInteger(value) && value >= 0 && value <= 65535 ? value : undefined;
});

/** OpenAI's built-in voices: the default list when the base URL serves /audio/speech. */
export const OPENAI_DEFAULT_VOICES = ["alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer"];

/** Which kind of server AI_IMAGE_PROVIDER names. */
export const IMAGE_PROVIDER_KINDS = ["openai", "automatic1111", "comfyui"] as const;
export type ImageProviderKind = (typeof IMAGE_PROVIDER_KINDS)[number];

/** Who may create an account (REGISTRATION): anyone, holders of an invitation link, or nobody. */
export const REGISTRATION_MODES = ["open", "invite", "closed"] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

const wholeAtLeastZero = (fallback: number) =>
  setting(fallback, "a whole number of at least 0", (raw) => {
    const value = number(raw);
    return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  });

/** The one schema: variable names as README's Configuration table spells them, with their defaults. */
const settingsSchema = z
  .object({
    NODE_ENV: optionalText,
    PORT: port,
    HOST: setting("0.0.0.0", "an address", (raw) => raw),
    TRUST_PROXY: trustProxy,
    BUILD_DIR: setting("build", "a folder", (raw) => raw),
    SHUTDOWN_GRACE_SECONDS: nonNegativeNumber(10),
    /** How long any request but an upload may take to arrive whole, headers and body (408 beyond it). */
    REQUEST_DEADLINE_SECONDS: positiveNumber(30),
    /** An upload slower than this on average over UPLOAD_RATE_WINDOW_SECONDS is cut (408). */
    UPLOAD_MIN_BYTES_PER_SECOND: positiveNumber(1024),
    UPLOAD_RATE_WINDOW_SECONDS: positiveNumber(30),
    /** One line per request on stdout (server/request-log.ts); 0 or false turns it off. */
    LOG_REQUESTS: setting(true, '"1", "true", "0" or "false"', (raw) => (/^(1|true)$/i.test(raw) ? true : /^(0|false)$/i.test(raw) ? false : undefined)),
    DATA_DIR: setting("./data", "a folder", (raw) => raw),
    DATABASE_FILE: optionalText,
    /** postgres://… or postgresql://…: PostgreSQL instead of the embedded SQLite file. */
    DATABASE_URL: setting<string | null>(null, "a postgres:// or postgresql:// URL", (raw) => (/^postgres(ql)?:\/\//i.test(raw) ? raw : undefined), {
      secret: true,
    }),
    /** file://… (default $DATA_DIR/media) or s3://bucket?endpoint=…: where people's files live. */
    STORAGE_URL: optionalText,
    /** Names this instance's temporary upload folder (default: host name and port). */
    INSTANCE_ID: optionalText,
    SESSION_SECRET: setting<string | null>(
      null,
      `at least ${SECRET_MIN_LENGTH} characters long`,
      (raw) => (raw.length >= SECRET_MIN_LENGTH ? raw : undefined),
      { secret: true },
    ),
    COOKIE_SECURE: boolean,
    ALLOWED_ORIGINS: list([]),
    /** The address people reach the studio at (e.g. https://studio.example.com), when a proxy hides it. */
    PUBLIC_URL: httpUrl(null),
    /** Single sign-on: all three of issuer, client id and secret, or none. */
    OIDC_ISSUER: oidcIssuer,
    OIDC_CLIENT_ID: optionalText,
    OIDC_CLIENT_SECRET: setting<string | null>(null, "a client secret", (raw) => raw, { secret: true }),
    /** What the Login screen's button says: "Sign in with {OIDC_NAME}". */
    OIDC_NAME: optionalText,
    LOGIN_MAX_FAILURES_PER_ACCOUNT: positiveWhole(10),
    LOGIN_MAX_FAILURES_PER_ADDRESS: positiveWhole(100),
    LOGIN_FAILURE_WINDOW_MINUTES: positiveWhole(15),
    /** open (SPEC's default), invite (an invitation link from `npm run admin -- invite`) or closed. */
    REGISTRATION: setting<RegistrationMode>("open", `one of ${REGISTRATION_MODES.join(", ")}`, (raw) =>
      (REGISTRATION_MODES as readonly string[]).includes(raw.toLowerCase()) ? (raw.toLowerCase() as RegistrationMode) : undefined,
    ),
    REGISTER_MAX_PER_ADDRESS: positiveWhole(20),
    FEEDBACK_MAX_PER_ADDRESS: positiveWhole(10),
    PASSWORD_HASH_QUEUE_MAX: positiveWhole(16),
    /** The most hashing work (at the recent time per hash) that may wait; fewer than PASSWORD_HASH_QUEUE_MAX when hashes are slow. */
    PASSWORD_HASH_QUEUE_SECONDS: positiveNumber(1.5),
    ACCESS_TOKEN_MINUTES: positiveWhole(15),
    REFRESH_TOKEN_DAYS: positiveWhole(30),
    VOICE_MAX_BYTES: bytes(25 * MiB),
    VIDEO_MAX_BYTES: bytes(2048 * MiB),
    /** What one person may store, uploads and generations together (issue 15); fractions allowed. */
    USER_STORAGE_QUOTA_MB: positiveNumber(1024),
    AI_BASE_URL: httpUrl(null),
    AI_API_KEY: optionalText,
    AI_CHAT_MODEL: optionalText,
    AI_SPEECH_MODEL: optionalText,
    AI_SPEECH_VOICES: list(null),
    AI_IMAGE_MODEL: optionalText,
    AI_IMAGE_SIZE: setting("1024x1024", "a size", (raw) => raw),
    /** Per-capability servers; each falls back to AI_BASE_URL / AI_API_KEY. */
    AI_CHAT_BASE_URL: httpUrl(null),
    AI_CHAT_API_KEY: optionalText,
    AI_SPEECH_BASE_URL: httpUrl(null),
    AI_SPEECH_API_KEY: optionalText,
    AI_IMAGE_BASE_URL: httpUrl(null),
    AI_IMAGE_API_KEY: optionalText,
    /** openai (the default when AI_IMAGE_MODEL is set), automatic1111 or comfyui. */
    AI_IMAGE_PROVIDER: setting<ImageProviderKind | null>(null, `one of ${IMAGE_PROVIDER_KINDS.join(", ")}`, (raw) =>
      (IMAGE_PROVIDER_KINDS as readonly string[]).includes(raw.toLowerCase()) ? (raw.toLowerCase() as ImageProviderKind) : undefined,
    ),
    /** ComfyUI workflow files (API format); unset: the ones shipped in app/ai/workflows. */
    AI_COMFYUI_WORKFLOW: optionalText,
    AI_COMFYUI_SKETCH_WORKFLOW: optionalText,
    AI_COMFYUI_CHECKPOINT: setting("v1-5-pruned-emaonly.safetensors", "a checkpoint file name", (raw) => raw),
    ELEVENLABS_API_KEY: optionalText,
    ELEVENLABS_MODEL: setting("eleven_multilingual_v2", "a model name", (raw) => raw),
    ELEVENLABS_BASE_URL: httpUrl("https://api.elevenlabs.io"),
    REPLICATE_API_TOKEN: optionalText,
    REPLICATE_VIDEO_MODEL: optionalText,
    REPLICATE_BASE_URL: httpUrl("https://api.replicate.com/v1"),
    /** Hosts a provider's download links may name besides its own base URL's host (app/ai/remote-http.server.ts). */
    AI_DOWNLOAD_HOSTS: setting<string[]>([], "a comma-separated list of host names (host, host:port or *.domain)", (raw) => {
      const hosts = raw
        .split(",")
        .map((item) => item.trim().toLowerCase())
        .filter(Boolean);
      return hosts.every((host) => /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/.test(host)) ? hosts : undefined;
    }),
    AI_TIMEOUT_SECONDS: positiveNumber(60),
    AI_MAX_RETRIES: nonNegativeNumber(2),
    AI_TOTAL_TIMEOUT_SECONDS: positiveNumber(120),
    VIDEO_MAX_ACTIVE_JOBS: positiveWhole(3),
    VIDEO_JOB_TIMEOUT_SECONDS: positiveNumber(600),
    /** Per-person AI limits across every AI call and instance (app/models/ai-usage.server.ts). */
    AI_REQUESTS_PER_MINUTE: positiveWhole(20),
    AI_CONCURRENT_PER_PERSON: positiveWhole(2),
    /** AI requests one person may start per day (UTC), unless `npm run admin -- ai-limit` set theirs; 0: no cap. */
    AI_DAILY_LIMIT: wholeAtLeastZero(0),
  })
  .superRefine((raw, context) => {
    const oidcGiven = OIDC_TOGETHER.filter((name) => raw[name] !== null);
    if (oidcGiven.length > 0 && oidcGiven.length < OIDC_TOGETHER.length) {
      for (const name of OIDC_TOGETHER.filter((missing) => raw[missing] === null)) {
        context.addIssue({
          code: "custom",
          path: [name],
          message: `must be set too: single sign-on needs ${OIDC_TOGETHER.join(", ")} together (${oidcGiven.join(" and ")} ${oidcGiven.length === 1 ? "is" : "are"} set), or none of them`,
        });
      }
    }
    const imageProvider = raw.AI_IMAGE_PROVIDER;
    if (imageProvider && !(raw.AI_IMAGE_BASE_URL ?? raw.AI_BASE_URL)) {
      context.addIssue({ code: "custom", path: ["AI_IMAGE_BASE_URL"], message: `must be set (or AI_BASE_URL) for the ${imageProvider} image provider` });
    }
    if (raw.AI_IMAGE_PROVIDER === "openai" && !raw.AI_IMAGE_MODEL) {
      context.addIssue({ code: "custom", path: ["AI_IMAGE_MODEL"], message: "must be set for the openai image provider" });
    }
    if ((imageProvider === "automatic1111" || imageProvider === "comfyui") && !/^\d{2,5}x\d{2,5}$/.test(raw.AI_IMAGE_SIZE)) {
      context.addIssue({ code: "custom", path: ["AI_IMAGE_SIZE"], message: `must look like "512x512" for the ${imageProvider} image provider, got "${raw.AI_IMAGE_SIZE}"` });
    }
    if (raw.REPLICATE_API_TOKEN && raw.REPLICATE_VIDEO_MODEL && !/^[\w.-]+\/[\w.-]+$/.test(raw.REPLICATE_VIDEO_MODEL)) {
      context.addIssue({
        code: "custom",
        path: ["REPLICATE_VIDEO_MODEL"],
        message: `must look like "owner/name", got "${raw.REPLICATE_VIDEO_MODEL}"`,
      });
    }
  })
  .transform((raw) => {
    const isProduction = raw.NODE_ENV === "production";
    const dataDir = path.resolve(raw.DATA_DIR);
    return {
      nodeEnv: raw.NODE_ENV,
      isProduction,
      // The HTTP front door (server/).
      port: raw.PORT,
      host: raw.HOST,
      /** As Express takes it; `trustProxyEnabled` says whether X-Forwarded-* headers count at all. */
      trustProxy: raw.TRUST_PROXY,
      trustProxyEnabled: raw.TRUST_PROXY !== false && raw.TRUST_PROXY !== 0,
      buildDir: raw.BUILD_DIR,
      /** How long requests in flight may take to finish after SIGTERM/SIGINT before their sockets are closed. */
      shutdownGraceMs: raw.SHUTDOWN_GRACE_SECONDS * 1000,
      /** The time a request other than an upload has to arrive whole (headers and body); its answer may take longer. */
      requestDeadlineMs: raw.REQUEST_DEADLINE_SECONDS * 1000,
      /** An upload (multipart/form-data) has no deadline but must bring at least this many bytes per second... */
      uploadMinBytesPerSecond: raw.UPLOAD_MIN_BYTES_PER_SECOND,
      /** ...on average over each window of this length, or it is cut with 408 and nothing of it is kept. */
      uploadRateWindowMs: raw.UPLOAD_RATE_WINDOW_SECONDS * 1000,
      /** The request log (LOG_REQUESTS): on unless turned off. */
      logRequests: raw.LOG_REQUESTS,
      // Storage.
      dataDir,
      /** The database to open: PostgreSQL when DATABASE_URL is set, else the SQLite file; db.server.ts picks the dialect. */
      database: raw.DATABASE_URL
        ? ({ engine: "postgres", url: raw.DATABASE_URL } as const)
        : ({ engine: "sqlite", file: path.resolve(raw.DATABASE_FILE ?? path.join(dataDir, "studio.sqlite")) } as const),
      /** STORAGE_URL as given (app/lib/storage.server.ts parses it); null: files under $DATA_DIR/media. */
      storageUrl: raw.STORAGE_URL,
      /** Set by INSTANCE_ID or made from the host name and port: names this instance's temporary upload folder. */
      instanceId: raw.INSTANCE_ID ?? null,
      // Accounts and security.
      /** SESSION_SECRET when set; otherwise sessionSecret() keeps a generated one in DATA_DIR. */
      sessionSecret: raw.SESSION_SECRET,
      /** Default: Secure cookies in production. Plain-HTTP deployments on a network address set false. */
      cookieSecure: raw.COOKIE_SECURE ?? isProduction,
      /** Extra origins allowed to post forms and API calls, e.g. behind a proxy that rewrites Host. */
      allowedOrigins: raw.ALLOWED_ORIGINS ?? [],
      /** PUBLIC_URL without a trailing slash: invitation links and the SSO redirect URI; null: each request's own origin (behind a trusted proxy, its X-Forwarded-Proto and -Host), and the admin command says http://localhost:PORT. */
      publicUrl: raw.PUBLIC_URL,
      /** Single sign-on with an OpenID provider (app/auth/oidc.server.ts), or null when not set up. */
      oidc:
        raw.OIDC_ISSUER && raw.OIDC_CLIENT_ID && raw.OIDC_CLIENT_SECRET
          ? { issuer: raw.OIDC_ISSUER, clientId: raw.OIDC_CLIENT_ID, clientSecret: raw.OIDC_CLIENT_SECRET, name: raw.OIDC_NAME ?? "SSO" }
          : null,
      loginMaxFailuresPerAccount: raw.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      loginMaxFailuresPerAddress: raw.LOGIN_MAX_FAILURES_PER_ADDRESS,
      loginFailureWindowMinutes: raw.LOGIN_FAILURE_WINDOW_MINUTES,
      /** Who may register: open (anyone), invite (with an invitation link's code) or closed. */
      registration: raw.REGISTRATION,
      /** Registrations per client address per hour (each costs an argon2 hash); loopback is not counted. */
      registerMaxPerAddress: raw.REGISTER_MAX_PER_ADDRESS,
      /** Feedback messages per client address per hour (anyone may send them); loopback is not counted. */
      feedbackMaxPerAddress: raw.FEEDBACK_MAX_PER_ADDRESS,
      /** Password hashes that may wait for a hashing thread; more answer 503 with Retry-After (app/models/password.server.ts). */
      passwordHashQueueMax: raw.PASSWORD_HASH_QUEUE_MAX,
      passwordHashQueueMs: raw.PASSWORD_HASH_QUEUE_SECONDS * 1000,
      accessTokenMinutes: raw.ACCESS_TOKEN_MINUTES,
      refreshTokenDays: raw.REFRESH_TOKEN_DAYS,
      // Media.
      /** Largest voice clip upload (413 beyond it). */
      voiceMaxBytes: raw.VOICE_MAX_BYTES,
      /** Largest video upload (413 beyond it). */
      videoMaxBytes: raw.VIDEO_MAX_BYTES,
      /** USER_STORAGE_QUOTA_MB in bytes: uploads and generations past it are refused (413). */
      storageQuotaBytes: Math.floor(raw.USER_STORAGE_QUOTA_MB * MiB),
      // AI providers (app/ai/config.server.ts shapes these for the providers).
      ai: {
        baseUrl: raw.AI_BASE_URL,
        apiKey: raw.AI_API_KEY,
        chatModel: raw.AI_CHAT_MODEL,
        speechModel: raw.AI_SPEECH_MODEL,
        speechVoices: raw.AI_SPEECH_VOICES ?? OPENAI_DEFAULT_VOICES,
        imageModel: raw.AI_IMAGE_MODEL,
        imageSize: raw.AI_IMAGE_SIZE,
        chatBaseUrl: raw.AI_CHAT_BASE_URL ?? raw.AI_BASE_URL,
        chatApiKey: raw.AI_CHAT_API_KEY ?? raw.AI_API_KEY,
        speechBaseUrl: raw.AI_SPEECH_BASE_URL ?? raw.AI_BASE_URL,
        speechApiKey: raw.AI_SPEECH_API_KEY ?? raw.AI_API_KEY,
        imageBaseUrl: raw.AI_IMAGE_BASE_URL ?? raw.AI_BASE_URL,
        imageApiKey: raw.AI_IMAGE_API_KEY ?? raw.AI_API_KEY,
        /** Null: none (no AI_IMAGE_PROVIDER, and no AI_IMAGE_MODEL at a base URL). */
        imageProvider: raw.AI_IMAGE_PROVIDER ?? (raw.AI_IMAGE_MODEL && (raw.AI_IMAGE_BASE_URL ?? raw.AI_BASE_URL) ? ("openai" as const) : null),
        comfyuiWorkflow: raw.AI_COMFYUI_WORKFLOW,
        comfyuiSketchWorkflow: raw.AI_COMFYUI_SKETCH_WORKFLOW,
        comfyuiCheckpoint: raw.AI_COMFYUI_CHECKPOINT,
        elevenlabsApiKey: raw.ELEVENLABS_API_KEY,
        elevenlabsModel: raw.ELEVENLABS_MODEL,
        elevenlabsBaseUrl: raw.ELEVENLABS_BASE_URL as string,
        replicateApiToken: raw.REPLICATE_API_TOKEN,
        replicateVideoModel: raw.REPLICATE_VIDEO_MODEL,
        replicateBaseUrl: raw.REPLICATE_BASE_URL as string,
        downloadHosts: raw.AI_DOWNLOAD_HOSTS,
        timeoutMs: raw.AI_TIMEOUT_SECONDS * 1000,
        totalTimeoutMs: raw.AI_TOTAL_TIMEOUT_SECONDS * 1000,
        maxRetries: Math.floor(raw.AI_MAX_RETRIES),
        videoJobTimeoutMs: raw.VIDEO_JOB_TIMEOUT_SECONDS * 1000,
        videoMaxActiveJobs: raw.VIDEO_MAX_ACTIVE_JOBS,
      },
      /** AI requests one person may start per minute, and have running at once (every capability, every instance). */
      aiRequestsPerMinute: raw.AI_REQUESTS_PER_MINUTE,
      aiConcurrentPerPerson: raw.AI_CONCURRENT_PER_PERSON,
      /** AI requests one person may start per UTC day (0: none); a person's own cap (users.ai_daily_limit) wins. */
      aiDailyLimit: raw.AI_DAILY_LIMIT,
    };
  });

export type Settings = z.output<typeof settingsSchema>;

/** Bad settings: the message names every bad variable, one per line. */
export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((problem) => `  ${problem}`).join("\n")}`);
    this.name = "SettingsError";
  }
}

/** Parses an environment record (default: process.env) against the one schema; throws SettingsError. */
export function parseSettings(source: Record<string, string | undefined> = process.env): Settings {
  const result = settingsSchema.safeParse(source);
  if (result.success) return result.data;
  throw new SettingsError(result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`));
}

/** The process's settings, parsed once. */
export const env: Settings = parseSettings();

let cachedSecret: string | undefined;

/**
 * SESSION_SECRET signs cookies and access tokens. Without one we generate a strong secret once and keep
 * it in DATA_DIR so sessions survive restarts; we warn because several instances must share one.
 */
export function sessionSecret(): string {
  if (cachedSecret) return cachedSecret;
  if (env.sessionSecret) return (cachedSecret = env.sessionSecret);
  makePrivateDir(env.dataDir, { restrictExisting: true });
  return (cachedSecret = readOrCreateSecretFile(path.join(env.dataDir, "session-secret")));
}

function errorCode(error: unknown) {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** The file's secret, null when there is no file, "" when it is too short to sign anything safely. */
function readSecret(file: string): string | null {
  try {
    const secret = fs.readFileSync(file, "utf8").trim();
    return secret.length >= SECRET_MIN_LENGTH ? secret : "";
  } catch (error) {
    if (errorCode(error) === "ENOENT") return null;
    throw error;
  }
}

/**
 * Publishes a complete file under `file` only if none exists: written to a temporary name first, then
 * hard-linked (atomic, fails with EEXIST), so another instance never reads it half written. Returns
 * false when another instance got there first.
 */
function createExclusively(file: string, content: string): boolean {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  fs.writeFileSync(temporary, content, { mode: 0o600 });
  try {
    fs.linkSync(temporary, file);
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    // A file system without hard links: exclusive create is the next best thing.
    if (!["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"].includes(errorCode(error) ?? "")) throw error;
    try {
      fs.writeFileSync(file, content, { mode: 0o600, flag: "wx" });
      return true;
    } catch (fallbackError) {
      if (errorCode(fallbackError) === "EEXIST") return false;
      throw fallbackError;
    }
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

/**
 * The secret kept in `file`, created when missing. An empty or truncated file (disk full, a bad copy)
 * would sign with a guessable key: it is replaced, with a warning. Instances starting together agree
 * on one secret: only one creates the file, the others read it. The file is 0600, an older one too.
 */
export function readOrCreateSecretFile(file: string): string {
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = readSecret(file);
    if (existing) {
      makePrivateFiles(file);
      return existing;
    }
    if (existing === "") {
      console.warn(
        `[studio] ${file} holds fewer than ${SECRET_MIN_LENGTH} characters: replacing it with a new secret ` +
          "(everyone signed in must log in again).",
      );
      // Moved aside, not deleted, in case someone wants to look at it; the next loop creates the new one.
      const aside = `${file}.invalid-${Date.now()}-${process.pid}`;
      try {
        fs.renameSync(file, aside);
      } catch (error) {
        if (errorCode(error) !== "ENOENT") throw error;
        continue;
      }
      // Another instance may have replaced the bad file just before we moved it: put its secret back.
      if (readSecret(aside)) {
        try {
          fs.linkSync(aside, file);
        } catch (error) {
          if (errorCode(error) !== "EEXIST") throw error;
        }
        fs.rmSync(aside, { force: true });
      }
      continue;
    }
    const secret = randomBytes(48).toString("base64url");
    if (createExclusively(file, secret + "\n")) {
      makePrivateFiles(file);
      console.warn(
        `[studio] SESSION_SECRET is not set: generated one and stored it in ${file}. ` +
          "Set SESSION_SECRET when you run more than one instance.",
      );
      return secret;
    }
    // Another instance created it meanwhile: read theirs.
  }
  throw new Error(`Could not read or create a session secret in ${file}`);
}
