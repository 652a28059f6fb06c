import { aiLimitDetailText } from "~/common/ai-limit-texts";
import { interpolate, msg, type Translator } from "~/common/i18n/translate";
import { screenText } from "~/common/media/media-texts";

/**
 * The one browser client for /api (docs/screens.md#states-and-transitions). The session cookie carries the tokens; on a 401 the
 * client asks POST /api/auth/refresh (cookie only) once, and every call that failed meanwhile waits
 * for that same refresh and is replayed once. If the refresh fails the person goes to /login.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

let refreshInFlight: Promise<boolean> | null = null;

function refreshSession(): Promise<boolean> {
  refreshInFlight ??= fetch("/api/auth/refresh", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: "{}",
  })
    .then((response) => response.ok)
    .catch(() => false)
    .finally(() => {
      // Later 401s (after this refresh settled) start a fresh refresh.
      queueMicrotask(() => (refreshInFlight = null));
    });
  return refreshInFlight;
}

let sentToLogin = false;
/** Whether this page is on its way to /login because the session ended (pages skip their "leave?" prompt). */
export function leavingForLogin(): boolean {
  return sentToLogin;
}

function sendToLogin() {
  sentToLogin = true;
  const here = window.location.pathname + window.location.search;
  window.location.assign(`/login?${new URLSearchParams({ redirectTo: here })}`);
}

/** fetch() for /api with the refresh-and-replay rule. The body must be replayable (string, FormData, Blob). */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const request = () => fetch(path, { ...init, credentials: "same-origin" });
  const response = await request();
  if (response.status !== 401) return response;
  if (!(await refreshSession())) {
    console.warn("[api] session refresh failed; sending you to the login page");
    sendToLogin();
    throw new ApiError(401, msg("Session expired"));
  }
  return request();
}

/** What the client says of an answer without a `detail` (its English: the widgets show `detailText(t, detail)`). */
const REQUEST_FAILED = msg("Request failed ({{status}})");

/** The `{"detail"}` of a failed API answer, or a plain sentence with its status when it has none. */
export async function errorDetail(response: Response): Promise<string> {
  try {
    const body = await response.json();
    if (typeof body?.detail === "string") return body.detail;
  } catch {
    // not JSON
  }
  return interpolate(REQUEST_FAILED, { status: response.status });
}

/**
 * An API `detail` (English, the /api contract) in the screen's language: the client's own "Request
 * failed (500)", the AI limits' refusal and the media refusals with their values are said again from
 * their templates, any other known text is looked up; an unknown one stays as the server said it.
 */
export function detailText(t: Translator["t"], detail: string): string {
  const failed = /^Request failed \((\d+)\)$/.exec(detail);
  if (failed) return t(REQUEST_FAILED, { status: failed[1] });
  return aiLimitDetailText(t, detail) ?? screenText(t, detail);
}

/** JSON in, JSON out; a non-2xx answer throws ApiError with the server's detail. */
export async function apiJson<T>(
  path: string,
  options: { method?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const response = await apiFetch(path, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers: options.body === undefined ? undefined : { "Content-Type": "application/json" },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  if (!response.ok) throw new ApiError(response.status, await errorDetail(response));
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/**
 * POST /api/library/upload: a capture (photo PNG, camera clip WebM, voice memo M4A) saved to the
 * person's library. Resolves the stored file; a refusal throws ApiError with the server's detail
 * (413 past the storage quota, 415 wrong content).
 */
export async function saveToLibrary(
  blob: Blob,
  filename: string,
  kind: "photo" | "clip" | "memo",
): Promise<{ id: string; name: string; url: string }> {
  const form = new FormData();
  // The kind first: the server reads it before the file either way, but this keeps the request readable.
  form.append("kind", kind);
  form.append("file", blob, filename);
  const response = await apiFetch("/api/library/upload", { method: "POST", body: form });
  if (!response.ok) throw new ApiError(response.status, await errorDetail(response));
  return (await response.json()) as { id: string; name: string; url: string };
}
