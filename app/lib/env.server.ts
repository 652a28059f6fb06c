import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Every setting the server reads from its environment, with its default, in one place (README lists them). */
function integerSetting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  }
  return value;
}

const isProduction = process.env.NODE_ENV === "production";

export const env = {
  isProduction,
  dataDir: path.resolve(process.env.DATA_DIR || "./data"),
  /** "true" | "false"; default: Secure cookies in production. Plain-HTTP deployments on a network address set false. */
  cookieSecure: process.env.COOKIE_SECURE ? process.env.COOKIE_SECURE === "true" : isProduction,
  /** Extra origins (comma separated) allowed to post forms and API calls, e.g. behind a proxy that rewrites Host. */
  allowedOrigins: (process.env.ALLOWED_ORIGINS ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean),
  loginMaxFailuresPerAccount: integerSetting("LOGIN_MAX_FAILURES_PER_ACCOUNT", 10),
  loginMaxFailuresPerAddress: integerSetting("LOGIN_MAX_FAILURES_PER_ADDRESS", 50),
  loginFailureWindowMinutes: integerSetting("LOGIN_FAILURE_WINDOW_MINUTES", 15),
  accessTokenMinutes: integerSetting("ACCESS_TOKEN_MINUTES", 15),
  refreshTokenDays: integerSetting("REFRESH_TOKEN_DAYS", 30),
};

fs.mkdirSync(env.dataDir, { recursive: true });

let cachedSecret: string | undefined;

/**
 * SESSION_SECRET signs cookies and access tokens. Without one we generate a strong secret once and keep
 * it in DATA_DIR so sessions survive restarts; we warn because several instances must share one.
 */
export function sessionSecret(): string {
  if (cachedSecret) return cachedSecret;
  const fromEnv = process.env.SESSION_SECRET?.trim();
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error("SESSION_SECRET must be at least 32 characters long");
    return (cachedSecret = fromEnv);
  }
  const file = path.join(env.dataDir, "session-secret");
  try {
    cachedSecret = fs.readFileSync(file, "utf8").trim();
  } catch {
    cachedSecret = randomBytes(48).toString("base64url");
    fs.writeFileSync(file, cachedSecret + "\n", { mode: 0o600 });
    console.warn(
      `[studio] SESSION_SECRET is not set: generated one and stored it in ${file}. ` +
        "Set SESSION_SECRET when you run more than one instance.",
    );
  }
  return cachedSecret;
}
