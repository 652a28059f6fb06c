import { format as formatArgs, inspect } from "node:util";
import pino from "pino";
import { maskSharePaths } from "~/common/sharing/share-path";
import { env } from "~/lib/settings/env.server";
import type { LogFormat } from "~/lib/settings/observability-variables";
import { instanceIdFor } from "~/lib/storage/storage.server";

/**
 * What the process writes about itself (docs/decisions/0088, docs/operating.md "Logs"). LOG_FORMAT=text
 * (the default) keeps the readable lines: the request log's, and errors on stderr as Node prints them.
 * LOG_FORMAT=json makes every line on stdout one JSON object a log tool reads (pino): the request log's
 * (`writeRequestJson`), errors with their stack under the request's id (`logError`), and whatever else
 * reaches the console (`installConsole`). In both, nothing secret gets through: share tokens (after the
 * path is normalised as the router normalises it), bearer and personal tokens, JWTs, passwords,
 * cookies and query strings are masked.
 */
export type { LogFormat };

/** One finished request, as the front door's request log hands it over (server/request-log.ts). */
export interface RequestLogRecord {
  id: string;
  method: string;
  /** The route pattern (`/content/:id`); none for what React Router never saw (client files, refusals). */
  route?: string;
  /** Already masked (`maskedPath`), without its query string. */
  path: string;
  status: number;
  durationMs: number;
  /** Bytes the answer put on the connection, its head included. */
  bytes: number;
  /** The connection closed before the answer was ended (a client gone, an answer cut by the server). */
  aborted: boolean;
}

/** Where JSON lines go: anything with pino's `write(line)`. */
export interface LogDestination {
  write(chunk: string): void;
}

/** Names whose value is a secret, as text, JSON, an inspected object or a form field (`newPassword`, `api_key`). */
const KEY = String.raw`\b([\w-]*(?:password|passwd|token|secret|api[_-]?key|authorization))`;

const SECRET_PATTERNS: [RegExp, string][] = [
  // An Authorization header's credentials, whatever follows (a personal token, a JWT, a password pair).
  [/\b(Bearer|Basic)\s+[^\s"',;)]+/gi, "$1 ***"],
  [/\bcas_[\w-]+/g, "cas_***"],
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]+/g, "***"],
  // A cookie header's whole value: every cookie in it, not only the first.
  [/\b((?:set-)?cookie)(\\?["']?\s*[:=]\s*\\?["']?)[^"'\\\r\n]+/gi, "$1$2***"],
  // A colon or an equals sign must follow the name, so prose ("the token expired") and names in a
  // stack (`verifyToken (file…)`) stay. A quoted value goes whole, an unquoted one up to a separator.
  [new RegExp(KEY + String.raw`(\\?["']?\s*[:=]\s*)(\\?")[^"\\]*`, "gi"), "$1$2$3***"],
  [new RegExp(KEY + String.raw`(\\?["']?\s*[:=]\s*)(')[^']*`, "gi"), "$1$2$3***"],
  [new RegExp(KEY + String.raw`(\\?["']?\s*[:=]\s*)(?![\s"'\\]|(?:Bearer|Basic) )[^\s&,;)}\]]+`, "gi"), "$1$2***"],
  // A query string (invitation codes, tokens in links); a lone "?" in a sentence stays.
  [/(?<=\S)\?[^\s"'<>#]+/g, "?***"],
];

/** The text with every secret it might hold masked; masking twice changes nothing more. */
export function maskSecrets(text: string): string {
  let masked = maskSharePaths(text);
  for (const [pattern, replacement] of SECRET_PATTERNS) masked = masked.replace(pattern, replacement);
  return masked;
}

/**
 * A request's path (no query string) for the request log, a share link's token masked: the path is
 * read as the router reads it (`/x/../s/T` → `/s/***`; what follows the token stays).
 */
export function maskedPath(path: string): string {
  return maskSharePaths(path);
}

/**
 * Lines of one turn of the event loop in one write to stdout, and whatever is still pending when the
 * process exits (stdout is synchronous on Linux for files, pipes and terminals).
 */
export function stdoutBatches(): LogDestination {
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const text = pending.join("");
    pending = [];
    process.stdout.write(text);
  };
  process.once("exit", flush);
  return {
    write(chunk) {
      if (pending.length === 0) setImmediate(flush);
      pending.push(chunk);
    },
  };
}

type ConsoleMethod = "error" | "warn" | "info" | "log";
type Plain = Pick<Console, ConsoleMethod>;

const state: { format: LogFormat; out: LogDestination | null; logger: pino.Logger | null; plain: Plain | null } = {
  format: "text",
  out: null,
  logger: null,
  plain: null,
};

/** Strings inside a logged value, masked, a few levels down; anything else deeper, as inspected text. */
function maskedValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return maskSecrets(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= 3) return maskSecrets(inspect(value, { depth: 1 }));
  if (Array.isArray(value)) return value.map((item) => maskedValue(item, depth + 1));
  const copy: Record<string, unknown> = {};
  // `for in`: pino's serialized error keeps type, message and stack on its prototype.
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined && typeof item !== "function") copy[key] = maskedValue(item, depth + 1);
  }
  return copy;
}

/**
 * An error as a log tool reads it: `{type, message, stack}` (causes folded in, pino's way), masked. What
 * React Router throws for a 404 or a 405 (an ErrorResponse, not an Error) is written as Node would print
 * it, masked: its text names the path.
 */
function serializedError(error: unknown): unknown {
  if (error instanceof Error) return maskedValue(pino.stdSerializers.err(error));
  const type = error === null || typeof error !== "object" ? typeof error : (error.constructor?.name ?? "Object");
  return { type, message: maskSecrets(typeof error === "string" ? error : inspect(error, { depth: 3 })) };
}

/** The one JSON logger, made when first needed: nothing is set up for LOG_FORMAT=text. */
function jsonLogger(): pino.Logger {
  state.logger ??= pino(
    {
      base: { instance: instanceIdFor(env) },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: [
          "headers.cookie",
          "headers.authorization",
          "*.password",
          "*.current_password",
          "*.new_password",
          "*.token",
          "*.access_token",
          "*.refresh_token",
          "*.api_key",
        ],
        censor: "***",
      },
      serializers: { err: serializedError },
    },
    (state.out ??= stdoutBatches()),
  );
  return state.logger;
}

/**
 * The request log's line for LOG_FORMAT=json: `{"level":"info","time",…,"instance","request_id","method",
 * "route","path","status","duration_ms","bytes","aborted","msg":"request"}`.
 */
export function writeRequestJson(record: RequestLogRecord): void {
  jsonLogger().info(
    {
      request_id: record.id,
      method: record.method,
      route: record.route,
      path: record.path,
      status: record.status,
      duration_ms: Math.round(record.durationMs * 10) / 10,
      bytes: record.bytes,
      aborted: record.aborted,
    },
    "request",
  );
}

/** The line's `msg`: an error's message, or an ErrorResponse's status and text (`405 Method Not Allowed`). */
function summaryOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  const response = error as { status?: unknown; statusText?: unknown } | null;
  if (response && typeof response.status === "number") return `${response.status} ${response.statusText ?? ""}`.trim();
  return "error";
}

/**
 * An error React Router caught (the entry's handleError) or the app logs for a request, under the
 * request's id: `{"level":"error","request_id",…,"err":{type,message,stack}}` in JSON; in text, Node's
 * printout of it, masked, after `[request <id>]`.
 */
export function logError(error: unknown, { requestId }: { requestId?: string | null } = {}): void {
  if (state.format === "json") {
    jsonLogger().error({ request_id: requestId ?? undefined, err: error }, maskSecrets(summaryOf(error)));
    return;
  }
  const text = maskSecrets(typeof error === "string" ? error : inspect(error));
  (state.plain ?? console).error(requestId ? `[request ${requestId}] ${text}` : text);
}

const LEVEL_OF: Record<ConsoleMethod, "error" | "warn" | "info"> = {
  error: "error",
  warn: "warn",
  info: "info",
  log: "info",
};

/**
 * Called by the front door at start, before the app starts: what reaches the console from anywhere
 * (React Router's own output, the Node adapter's, the renderer's, the app's `[outage]` and `[ai]` lines)
 * is masked, and in JSON becomes a JSON line at the console method's level. Returns the undoing (tests).
 */
export function installConsole(format: LogFormat, out?: LogDestination): () => void {
  const plain: Plain = { error: console.error, warn: console.warn, info: console.info, log: console.log };
  Object.assign(state, { format, logger: null, plain, out: out ?? state.out });
  for (const method of Object.keys(LEVEL_OF) as ConsoleMethod[]) {
    const level = LEVEL_OF[method];
    console[method] =
      format === "json"
        ? (...args: unknown[]) => {
            const error = args.length === 1 && args[0] instanceof Error ? args[0] : undefined;
            if (error) jsonLogger()[level]({ err: error }, maskSecrets(error.message));
            else jsonLogger()[level](maskSecrets(formatArgs(...args)));
          }
        : (...args: unknown[]) => plain[method](maskSecrets(formatArgs(...args)));
  }
  return () => {
    Object.assign(console, plain);
    Object.assign(state, { format: "text", logger: null, plain: null, out: null });
  };
}
