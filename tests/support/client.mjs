// @ts-check
// The one HTTP client of the API tests, probes, load runs and benches: plain JavaScript with JSDoc types, so
// node runs it without a TypeScript loader and tsc checks it and gives its types to the TypeScript tests.
import { randomUUID } from "node:crypto";

/** The password every person made here signs in with. */
export const PASSWORD = "correct horse battery";

/** An address no other person of the run has: `<prefix>-<8 hex>@example.com`. */
export const uniqueEmail = (prefix = "user") => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

/**
 * @typedef {object} RequestOptions
 * @property {string} [method] GET unless a body is given (then POST).
 * @property {unknown} [json] A body sent as JSON.
 * @property {Record<string, string> | URLSearchParams} [form] A body sent as a form (application/x-www-form-urlencoded).
 * @property {BodyInit} [body] A body sent as is.
 * @property {string | null} [token] A bearer token (Authorization).
 * @property {string | null} [cookie] A Cookie header.
 * @property {boolean} [browser] A write as a browser sends it from one of the site's pages: Origin and Sec-Fetch-Site.
 * @property {Record<string, string>} [headers] More headers (they win over the ones above).
 * @property {AbortSignal} [signal]
 */

/**
 * @typedef {object} Answer
 * @property {number} status
 * @property {any} body The JSON the answer carried, else its text (null when empty).
 * @property {string} text
 * @property {Buffer} bytes
 * @property {Headers} headers
 * @property {number} ms From sending to the answer's last byte.
 */

/**
 * Sends one request to `base` + `path` and reads the whole answer; redirects are answers, not followed.
 * Throws when no answer came, or when it was cut off (the message then starts with its status).
 * @param {string} base
 * @param {string} path
 * @param {RequestOptions} [options]
 * @returns {Promise<Answer>}
 */
export async function request(base, path, options = {}) {
  const { json, form, token, cookie } = options;
  /** @type {Record<string, string>} */
  const headers = {};
  let body = options.body;
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  } else if (form !== undefined) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(form);
  }
  const method = options.method ?? (body !== undefined ? "POST" : "GET");
  if (token) headers.Authorization = `Bearer ${token}`;
  if (cookie) headers.Cookie = cookie;
  if (options.browser) Object.assign(headers, { Origin: new URL(base).origin, "Sec-Fetch-Site": "same-origin" });
  Object.assign(headers, options.headers);
  const started = performance.now();
  const response = await fetch(base + path, { method, headers, body, redirect: "manual", signal: options.signal });
  let bytes;
  try {
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    throw new Error(`${response.status} cut off: ${error instanceof Error ? error.message : error}`);
  }
  const text = new TextDecoder().decode(bytes);
  /** @type {any} */
  let parsed = text || null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: the text itself
  }
  return {
    status: response.status,
    body: parsed,
    text,
    bytes,
    headers: response.headers,
    ms: performance.now() - started,
  };
}

/** The Cookie header a browser sends after this answer's Set-Cookie lines (name=value pairs). */
export const cookiesOf = (/** @type {Headers} */ headers) =>
  headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");

/**
 * @typedef {object} SignInOptions
 * @property {string} [password] PASSWORD unless given.
 * @property {Record<string, string>} [headers] e.g. a User-Agent or X-Forwarded-For.
 */

/**
 * Registers through the API (201 when it worked; the answer as it came).
 * @param {string} base
 * @param {string} email
 * @param {SignInOptions & { invite?: string }} [options]
 */
export function register(base, email, { password = PASSWORD, invite, headers } = {}) {
  return request(base, "/api/auth/register", {
    json: { email, password, ...(invite === undefined ? {} : { invite }) },
    headers,
  });
}

/**
 * Signs in through the API (200 with the token pair when it worked; the answer as it came).
 * @param {string} base
 * @param {string} email
 * @param {SignInOptions} [options]
 */
export function apiLogin(base, email, { password = PASSWORD, headers } = {}) {
  return request(base, "/api/auth/login", { json: { email, password }, headers });
}

/**
 * Signs in through the login form as a browser does (302 with the session cookie when it worked).
 * @param {string} base
 * @param {string} email
 * @param {SignInOptions & { browser?: boolean }} [options]
 * @returns {Promise<Answer & { cookie: string }>} `cookie`: the Cookie header the answer set.
 */
export async function formLogin(base, email, { password = PASSWORD, headers, browser } = {}) {
  const answer = await request(base, "/login", { form: { email, password }, headers, browser });
  return { ...answer, cookie: cookiesOf(answer.headers) };
}

/**
 * @typedef {object} Person
 * @property {string} id
 * @property {string} email
 * @property {string} password
 * @property {string} token The API's access token.
 * @property {string} refreshToken
 */

/**
 * A new person, registered and signed in through the API; throws when either step fails.
 * @param {string} base
 * @param {SignInOptions & { prefix?: string, email?: string }} [options]
 * @returns {Promise<Person>}
 */
export async function signUp(
  base,
  { prefix = "user", email = uniqueEmail(prefix), password = PASSWORD, headers } = {},
) {
  const registered = await register(base, email, { password, headers });
  if (registered.status !== 201)
    throw new Error(`register failed: ${registered.status} ${registered.text.slice(0, 200)}`);
  const login = await apiLogin(base, email, { password, headers });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text.slice(0, 200)}`);
  return {
    id: registered.body.id,
    email,
    password,
    token: login.body.access_token,
    refreshToken: login.body.refresh_token,
  };
}

/**
 * The Cookie header of a form sign-in; throws unless it answered 302.
 * @param {string} base
 * @param {string} email
 * @param {SignInOptions & { browser?: boolean }} [options]
 */
export async function signInWithForm(base, email, options = {}) {
  const login = await formLogin(base, email, options);
  if (login.status !== 302) throw new Error(`form login failed: ${login.status}`);
  return login.cookie;
}
