import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "./env.server";
import { makePrivateDir, makePrivateFiles } from "~/lib/storage/private-files.server";
import { SECRET_MIN_LENGTH } from "./server-variables";

/**
 * The session secret: SESSION_SECRET, or one generated once and kept in $DATA_DIR/session-secret.
 * Nothing here signs anything: app/lib/settings/keys.server.ts derives each use's key from this secret.
 */

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
