import { DomainError } from "./domain-error";

/**
 * The one place that tells an outage from a bug (docs/decisions/0049): an error that says
 * the database or the file store cannot be reached right now becomes the domain's "unavailable"
 * error, a 503 with Retry-After that the API answers as `{"detail"}` and screens show with a way to
 * try again. Everything else is left alone: bad input stays the 4xx its DomainError says, a bug a 500.
 */

export const UNAVAILABLE = "unavailable";
export const RETRY_AFTER_SECONDS = 5;

export type Dependency = "database" | "storage";

export const UNAVAILABLE_DETAIL: Record<Dependency, string> = {
  database: "The studio can't reach its database right now. Please try again in a moment.",
  storage: "The studio can't reach its file storage right now. Please try again in a moment.",
};

/** A 503 "unavailable" for `dependency`, keeping what went wrong as its cause (for the log). */
export function unavailable(dependency: Dependency, cause?: unknown): DomainError {
  const error = new DomainError(503, UNAVAILABLE_DETAIL[dependency], {
    headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
    code: UNAVAILABLE,
  });
  error.cause = cause;
  return error;
}

export function isUnavailable(error: unknown): error is DomainError {
  return error instanceof DomainError && error.code === UNAVAILABLE;
}

/** PostgreSQL: the server is shutting down or starting (57P01-03), a connection failure (class 08), too many connections. */
const PG_CODES = new Set(["57P01", "57P02", "57P03", "53300"]);
/** What `pg` and `pg-pool` say when a connection breaks or cannot be had in time (no code). */
const PG_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
];
/** Node's socket errors: nothing at the address, the peer went away, or it stopped answering. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ECONNABORTED",
]);
/** The AWS SDK's names for a request that never got an answer, and the store's own "not now" answers. */
const S3_NAMES = new Set([
  "TimeoutError",
  "NetworkingError",
  "RequestTimeout",
  "SlowDown",
  "ServiceUnavailable",
  "InternalError",
]);

interface ErrorShape {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
  $metadata?: { httpStatusCode?: number };
}

/** The error and what it wraps (a cause, an AggregateError's errors), a few levels deep. */
function* chain(error: unknown, depth = 0): Generator<ErrorShape> {
  if (!error || typeof error !== "object" || depth > 4) return;
  const shape = error as ErrorShape;
  yield shape;
  yield* chain(shape.cause, depth + 1);
  if (Array.isArray(shape.errors)) for (const inner of shape.errors) yield* chain(inner, depth + 1);
}

function isNetworkFailure(shape: ErrorShape): boolean {
  return typeof shape.code === "string" && NETWORK_CODES.has(shape.code);
}

/** A database error that means "not reachable now" (pg codes and messages, socket errors). */
export function isDatabaseOutage(error: unknown): boolean {
  for (const shape of chain(error)) {
    const code = typeof shape.code === "string" ? shape.code : "";
    if (PG_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || isNetworkFailure(shape)) return true;
    if (typeof shape.message === "string" && PG_MESSAGES.some((text) => (shape.message as string).startsWith(text)))
      return true;
  }
  return false;
}

/**
 * A file store error that means "not reachable now": the SDK's network and timeout errors (an error
 * with `$metadata` but no HTTP status never got an answer), a 5xx from the store (503 SlowDown,
 * ServiceUnavailable, InternalError), or a socket error. A 4xx (no such key, access denied) is not one.
 */
export function isStorageOutage(error: unknown): boolean {
  for (const shape of chain(error)) {
    const status = shape.$metadata?.httpStatusCode;
    if (typeof status === "number") {
      if (status >= 500) return true;
      continue;
    }
    if (shape.$metadata && typeof shape.name === "string" && shape.name !== "AbortError") return true;
    if (typeof shape.name === "string" && S3_NAMES.has(shape.name)) return true;
    if (isNetworkFailure(shape)) return true;
  }
  return false;
}

/**
 * The "unavailable" error `error` amounts to, or null when it is not an outage. `dependency` says who
 * failed when the caller knows (the S3 store, the database pool); unknown, an error carrying the
 * SDK's `$metadata` is the store's and anything else the database's.
 */
export function outageOf(error: unknown, dependency?: Dependency): DomainError | null {
  if (isUnavailable(error)) return error;
  if (error instanceof DomainError) return null;
  // fetch() to some other server (an AI provider) failing is that server's problem, not ours: the
  // database speaks pg and the store the SDK, neither through fetch.
  if (!dependency && error instanceof TypeError && error.message === "fetch failed") return null;
  const from: Dependency = dependency ?? ([...chain(error)].some((shape) => shape.$metadata) ? "storage" : "database");
  const outage = from === "storage" ? isStorageOutage(error) : isDatabaseOutage(error);
  return outage ? unavailable(from, error) : null;
}

const lastLogged = new Map<string, number>();

/**
 * Logs an outage at most once a second per dependency and cause: during an outage every request
 * fails alike, and a line per request would bury the log.
 */
export function logOutage(outage: DomainError, now = Date.now()): void {
  const cause = outage.cause as ErrorShape | undefined;
  const reason = String(cause?.message || cause?.code || cause?.name || "unreachable");
  const key = `${outage.detail}|${reason}`;
  if (now - (lastLogged.get(key) ?? 0) < 1000) return;
  lastLogged.set(key, now);
  if (lastLogged.size > 100) lastLogged.clear();
  console.error(
    `[outage] ${outage.detail === UNAVAILABLE_DETAIL.database ? "database" : "storage"} unavailable: ${reason}`,
  );
}
