import path from "node:path";
import { z } from "zod";
import { OPENAI_DEFAULT_VOICES } from "./ai-variables";
import { settingsShape } from "./catalogue";

/**
 * Every setting the server reads from its environment, in one zod schema, parsed once at start. Each
 * variable is declared once, with its default and description, in app/lib/settings/ (by topic); the
 * schema below is made from those declarations and shapes the parsed values for the app, and
 * docs/configuration.md and .env.example are generated from them (`npm run docs:config`). A bad value
 * stops the server with one message naming every bad variable. `parseSettings` is pure (no files, no
 * process.env unless given), so tests and app/ai/config.server.ts can parse any record; `env` is the
 * process's settings, parsed once when this module is first imported (the production server imports the
 * build, and so this, before it listens). The session secret is app/lib/settings/session-secret.server.ts's; the
 * keys made from it, app/lib/settings/keys.server.ts's.
 *
 * The front door (server/, compiled into the build), scripts/start.mjs and scripts/admin.mjs read nothing
 * themselves but BUILD_DIR (to find the build): the rest reaches them through the build
 * (`entry.module.settings`).
 */

const MiB = 1024 * 1024;

/** The settings single sign-on needs together (docs/operating.md "Single sign-on"). */
const OIDC_TOGETHER = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const;

/** The one schema: the declared variables, checked together, shaped for the app. */
const settingsSchema = z
  .object(settingsShape)
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
      context.addIssue({
        code: "custom",
        path: ["AI_IMAGE_BASE_URL"],
        message: `must be set (or AI_BASE_URL) for the ${imageProvider} image provider`,
      });
    }
    if (raw.AI_IMAGE_PROVIDER === "openai" && !raw.AI_IMAGE_MODEL) {
      context.addIssue({
        code: "custom",
        path: ["AI_IMAGE_MODEL"],
        message: "must be set for the openai image provider",
      });
    }
    if (
      (imageProvider === "automatic1111" || imageProvider === "comfyui") &&
      !/^\d{2,5}x\d{2,5}$/.test(raw.AI_IMAGE_SIZE)
    ) {
      context.addIssue({
        code: "custom",
        path: ["AI_IMAGE_SIZE"],
        message: `must look like "512x512" for the ${imageProvider} image provider, got "${raw.AI_IMAGE_SIZE}"`,
      });
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
      // Observability (docs/operating.md "Observing it").
      /** The port of GET /metrics (METRICS_PORT) and its address; null: no metrics are kept. */
      metricsPort: raw.METRICS_PORT,
      metricsHost: raw.METRICS_HOST,
      /** The request log's and errors' form: text lines, or one JSON object a line. */
      logFormat: raw.LOG_FORMAT,
      /** The OpenTelemetry collector traces go to; null: nothing is traced. */
      otlpEndpoint: raw.OTEL_EXPORTER_OTLP_ENDPOINT,
      // Storage.
      dataDir,
      /** The database to open: PostgreSQL when DATABASE_URL is set, else the SQLite file; db.server.ts picks the dialect. */
      database: raw.DATABASE_URL
        ? ({ engine: "postgres", url: raw.DATABASE_URL } as const)
        : ({ engine: "sqlite", file: path.resolve(raw.DATABASE_FILE ?? path.join(dataDir, "studio.sqlite")) } as const),
      /** STORAGE_URL as given (app/lib/storage/storage-url.server.ts parses it); null: files under $DATA_DIR/media. */
      storageUrl: raw.STORAGE_URL,
      /** Set by INSTANCE_ID or made from the host name and port: names this instance's temporary upload folder. */
      instanceId: raw.INSTANCE_ID ?? null,
      // Accounts and security.
      /** SESSION_SECRET when set; otherwise session-secret.server.ts keeps a generated one in DATA_DIR. */
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
          ? {
              issuer: raw.OIDC_ISSUER,
              clientId: raw.OIDC_CLIENT_ID,
              clientSecret: raw.OIDC_CLIENT_SECRET,
              name: raw.OIDC_NAME ?? "SSO",
            }
          : null,
      loginMaxFailuresPerAccount: raw.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      loginMaxFailuresPerAddress: raw.LOGIN_MAX_FAILURES_PER_ADDRESS,
      loginFailureWindowMinutes: raw.LOGIN_FAILURE_WINDOW_MINUTES,
      /** Who may register: open (anyone), invite (with an invitation link's code) or closed. */
      registration: raw.REGISTRATION,
      /** Whether the pseudo-language en-XA may be chosen (docs/translating.md). */
      pseudoLanguage: raw.PSEUDO_LANGUAGE ?? false,
      /** Share links: public (anyone with a link may open it) or off (none made, /s/ answers 404). */
      sharing: raw.SHARING,
      /** Registrations per client address per hour (each costs an argon2 hash); loopback is not counted. */
      registerMaxPerAddress: raw.REGISTER_MAX_PER_ADDRESS,
      /** Feedback messages per client address per hour (anyone may send them); loopback is not counted. */
      feedbackMaxPerAddress: raw.FEEDBACK_MAX_PER_ADDRESS,
      /** Requests to /s/ (shared pages and their files) per client address per minute, per instance; loopback is not counted. */
      shareMaxRequestsPerAddress: raw.SHARE_MAX_REQUESTS_PER_ADDRESS,
      /** Live share links one person may have at once; the next create is 409 (app/models/sharing/share.server.ts). */
      sharesMaxPerPerson: raw.SHARES_MAX_PER_PERSON,
      /** Password hashes that may wait for a hashing thread; more answer 503 with Retry-After (app/models/accounts/password.server.ts). */
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
      /** Versions one text piece's history keeps (CONTENT_VERSIONS_MAX); the oldest autosaves are pruned first. */
      contentVersionsMax: raw.CONTENT_VERSIONS_MAX,
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
        imageProvider:
          raw.AI_IMAGE_PROVIDER ??
          (raw.AI_IMAGE_MODEL && (raw.AI_IMAGE_BASE_URL ?? raw.AI_BASE_URL) ? ("openai" as const) : null),
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
