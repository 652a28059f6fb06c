// What the probes of `npm run abuse` share: the settings the set-ups run with, and a context per probe
// (its own client addresses, people who register and sign in, plain fetch helpers).
import { randomUUID } from "node:crypto";
import { apiLogin, register, request } from "../../tests/support/client.mjs";

/** Settings every abuse set-up runs with: a small quota so races and text fill it quickly. */
export const ABUSE_ENV = {
  TRUST_PROXY: "loopback",
  USER_STORAGE_QUOTA_MB: "3",
};

let addressCounter = 0;
/** A client address no other probe uses (TEST-NET-2 and -3, then 10/8): X-Forwarded-For. */
export function freshAddress() {
  addressCounter++;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

/** One signed-in person: bearer token and session cookie, requests from `address`. */
export class AbusePerson {
  constructor(baseUrl, address) {
    this.baseUrl = baseUrl;
    this.address = address;
    this.email = `abuse-${randomUUID().slice(0, 12)}@example.com`;
    this.password = "correct horse battery staple";
    this.token = null;
    this.refreshToken = null;
  }

  /** fetch with this person's address and, unless `auth: false`, the bearer token; `json` sets the body. */
  async request(path, { method = "GET", json, body, headers = {}, auth = true, signal } = {}) {
    const answer = await request(this.baseUrl, path, {
      method,
      json,
      body,
      token: auth ? this.token : null,
      headers: { "X-Forwarded-For": this.address, Origin: this.baseUrl, ...headers },
      signal: signal ?? AbortSignal.timeout(120_000),
    });
    return {
      status: answer.status,
      data: answer.body,
      headers: answer.headers,
      ms: answer.ms,
      bytes: answer.text.length,
    };
  }

  /** Registers and signs in through the API (docs/api.md#every-call); throws when either fails. */
  async signUp() {
    const registered = await register(this.baseUrl, this.email, { password: this.password, headers: this.headers() });
    if (registered.status !== 201 && registered.status !== 200)
      throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
    return this.logIn();
  }

  async logIn() {
    const login = await apiLogin(this.baseUrl, this.email, { password: this.password, headers: this.headers() });
    if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
    this.token = login.body.access_token;
    this.refreshToken = login.body.refresh_token;
    return this;
  }

  /** What every request of this person carries: its client address, and the site's origin. */
  headers() {
    return { "X-Forwarded-For": this.address, Origin: this.baseUrl };
  }
}

/** The context a probe runs with: the set-up, and people from addresses of the probe's own. */
export function abuseContext(setup, probeName) {
  return {
    setup,
    url: setup.url,
    probeName,
    freshAddress,
    /** A new person, registered and signed in, from a fresh address (or `address`). */
    async newPerson(address = freshAddress()) {
      return new AbusePerson(setup.url, address).signUp();
    },
    /** A person not yet registered (for login and registration probes). */
    stranger(address = freshAddress()) {
      return new AbusePerson(setup.url, address);
    },
  };
}

/** Counts of statuses, e.g. "3×200 57×429". */
export function tally(statuses) {
  const counts = new Map();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${count}×${status}`)
    .join(" ");
}
