import { inject } from "vitest";
import { PASSWORD, request, signInWithForm as formSignIn, signUp, uniqueEmail } from "./client.mjs";

export { PASSWORD, uniqueEmail };

/** The URL of the server the API suite runs against (tests/api/global-setup.ts starts it). */
export const baseUrl = () => inject("apiBaseUrl");

export interface ApiResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * Calls the running server's API with JSON (through the one client, tests/support/client.mjs); `token` adds
 * a bearer header, `raw` sends a body as is, `server` names another server than the suite's (a test that
 * starts one of its own).
 */
export async function api<T = any>(
  path: string,
  options: {
    method?: string;
    json?: unknown;
    raw?: BodyInit;
    token?: string;
    headers?: Record<string, string>;
    server?: string;
  } = {},
): Promise<ApiResult<T>> {
  const { status, body, headers } = await request(options.server ?? baseUrl(), path, {
    method: options.method,
    json: options.json,
    body: options.raw,
    token: options.token,
    headers: options.headers,
  });
  return { status, body, headers };
}

/** Signs in through the login form (as a browser does); resolves the Cookie header the answer set. */
export function signInWithForm(email: string, server = baseUrl()): Promise<string> {
  return formSignIn(server, email);
}

/** A fresh account and its token pair, on the suite's server or `server`. */
export async function newUser(prefix = "user", server = baseUrl()) {
  const { id, email, token, refreshToken } = await signUp(server, { prefix });
  return { id, email, token, refreshToken };
}

/**
 * Reads `read()` every `intervalMs` until `done` holds of what it gave, then resolves that; after
 * `timeoutMs` resolves the last reading anyway, for the test's own assertion to report. A bound on a
 * condition, not a sleep: on a loaded machine (other processes on both cores) work takes several times
 * longer than on a quiet one, so the bound is generous and a quick answer still ends the wait at once.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 120_000, intervalMs = 300 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() >= deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The final states of an AI video job (the video generation statuses in docs/screens.md): it changes no more after one. */
export const FINISHED_VIDEO_STATUSES = ["completed", "error", "timeout", "cancelled"];

/** Polls an AI video job's status until it is final (or `timeoutMs` passed); resolves the last status body. */
export function waitForVideoJob(token: string, id: string, timeoutMs = 120_000, server?: string) {
  return pollUntil(
    async () => (await api(`/api/aivideo/status/${id}`, { token, server })).body,
    (status) => FINISHED_VIDEO_STATUSES.includes(status?.status),
    { timeoutMs },
  );
}

/** A screen's own form post (its action), as a plain form or a fetcher sends it; the body is read. */
export async function screenPost(cookie: string, path: string, fields: Record<string, string>) {
  const response = await fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { Cookie: cookie },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  await response.arrayBuffer();
  return response;
}
