import { randomUUID } from "node:crypto";
import { inject } from "vitest";

export const baseUrl = () => inject("apiBaseUrl");

export interface ApiResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * Calls the running server's API with JSON; `token` adds a bearer header, `raw` sends a body as is,
 * `server` names another server than the suite's (a test that starts one of its own).
 */
export async function api<T = any>(
  path: string,
  options: { method?: string; json?: unknown; raw?: BodyInit; token?: string; headers?: Record<string, string>; server?: string } = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.json !== undefined) headers["Content-Type"] = "application/json";
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const response = await fetch((options.server ?? baseUrl()) + path, {
    method: options.method ?? (options.json !== undefined || options.raw !== undefined ? "POST" : "GET"),
    headers,
    body: options.json !== undefined ? JSON.stringify(options.json) : options.raw,
    redirect: "manual",
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body, headers: response.headers };
}

export const uniqueEmail = (prefix = "user") => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
export const PASSWORD = "correct horse battery";

/** Signs in through the login form (as a browser does); resolves the Cookie header the answer set. */
export async function signInWithForm(email: string): Promise<string> {
  const login = await fetch(`${baseUrl()}/login`, {
    method: "POST",
    body: new URLSearchParams({ email, password: PASSWORD }),
    redirect: "manual",
  });
  if (login.status !== 302) throw new Error(`form login failed: ${login.status}`);
  return login.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
}

/** A fresh account and its token pair. */
export async function newUser(prefix = "user") {
  const email = uniqueEmail(prefix);
  const registered = await api("/api/auth/register", { json: { email, password: PASSWORD } });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status}`);
  const login = await api("/api/auth/login", { json: { email, password: PASSWORD } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
  return { id: registered.body.id as string, email, token: login.body.access_token as string, refreshToken: login.body.refresh_token as string };
}

/**
 * Reads `read()` every `intervalMs` until `done` holds of what it gave, then resolves that; after
 * `timeoutMs` resolves the last reading anyway, for the test's own assertion to report. A bound on a
 * condition, not a sleep: on a loaded machine (other processes on both cores) work takes several times
 * longer than on a quiet one, so the bound is generous and a quick answer still ends the wait at once.
 */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, { timeoutMs = 120_000, intervalMs = 300 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() >= deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The final states of an AI video job (SPEC's video generation statuses): it changes no more after one. */
export const FINISHED_VIDEO_STATUSES = ["completed", "error", "timeout"];

/** Polls an AI video job's status until it is final (or `timeoutMs` passed); resolves the last status body. */
export function waitForVideoJob(token: string, id: string, timeoutMs = 120_000, server?: string) {
  return pollUntil(
    async () => (await api(`/api/aivideo/status/${id}`, { token, server })).body,
    (status) => FINISHED_VIDEO_STATUSES.includes(status?.status),
    { timeoutMs },
  );
}
