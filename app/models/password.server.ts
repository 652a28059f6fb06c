import os from "node:os";
import { hash, verify, type Algorithm } from "@node-rs/argon2";
import { DomainError } from "~/lib/domain-error";
import { env } from "~/lib/env.server";

// OWASP's argon2id baseline: 19 MiB of memory, 2 iterations, 1 lane. Algorithm is a const enum (2 = Argon2id).
const ARGON2ID_OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * Which hashes go first when the queue is long: `first` for a login from an address with no other
 * attempt in the window (most people signing in), `later` for the rest (an address that has failed
 * already, a registration). A flood of guesses from addresses that keep guessing may fill only half
 * of the queue, and a newcomer's login goes ahead of all of it.
 */
export type HashPriority = "first" | "later";

/** The hash queue is full: answered 503 with Retry-After (the API as `{"detail"}`, the screens as their message). */
export class PasswordHashingBusy extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super(503, `The server is busy checking passwords. Please try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}.`, {
      headers: { "Retry-After": String(retryAfterSeconds) },
      code: "password-hashing-busy",
    });
  }
}

/**
 * One argon2id hash is tens of milliseconds of CPU on a libuv thread. Left alone, a burst of sign-ins
 * (four hashing threads by default) takes every core of a small machine and every other request waits
 * for the event loop's share: at most one hash per core but one runs at a time, the others queue.
 *
 * The queue is bounded (PASSWORD_HASH_QUEUE_MAX, default 16: well under two seconds of hashing on
 * one core): a hash asked for beyond it is refused at once (PasswordHashingBusy, 503 with Retry-After)
 * instead of making everyone wait longer and longer. `later` hashes may take only half of the queue,
 * and `first` ones are started before any `later` one.
 */
const slots = Math.max(1, os.availableParallelism() - 1);
let running = 0;
const firstQueue: Array<() => void> = [];
const laterQueue: Array<() => void> = [];
/** Recent time of one hash (moving average), for Retry-After. */
let averageHashMs = 50;

const queued = () => firstQueue.length + laterQueue.length;

/** The refusal a hash of this priority would get now (the queue has no room for it), or null. */
export function hashQueueRefusal(priority: HashPriority): PasswordHashingBusy | null {
  if (running < slots) return null;
  const limit = priority === "first" ? env.passwordHashQueueMax : Math.ceil(env.passwordHashQueueMax / 2);
  if (queued() < limit) return null;
  const waitMs = ((queued() + running) * averageHashMs) / slots;
  return new PasswordHashingBusy(Math.max(1, Math.ceil(waitMs / 1000)));
}

function admit(priority: HashPriority, bounded: boolean): void {
  const refusal = bounded ? hashQueueRefusal(priority) : null;
  if (refusal) throw refusal;
}

async function runHash<T>(work: () => Promise<T>, priority: HashPriority, bounded = true): Promise<T> {
  admit(priority, bounded);
  if (running < slots) running++;
  else await new Promise<void>((resolve) => (priority === "first" ? firstQueue : laterQueue).push(resolve)); // the slot is handed over on release
  const started = performance.now();
  try {
    return await work();
  } finally {
    averageHashMs = averageHashMs * 0.8 + (performance.now() - started) * 0.2;
    const next = firstQueue.shift() ?? laterQueue.shift();
    if (next) next();
    else running--;
  }
}

/** How many hashes run now, wait, the most that may run at once and wait (GET /api/health could show it; tests read it). */
export function passwordHashing(): { running: number; queued: number; slots: number; queueMax: number } {
  return { running, queued: queued(), slots, queueMax: env.passwordHashQueueMax };
}

/** Hashes a new password (registration): a `later` hash; throws PasswordHashingBusy when the queue is full. */
export function hashPassword(password: string, priority: HashPriority = "later"): Promise<string> {
  return runHash(() => hash(password, ARGON2ID_OPTIONS), priority);
}

/** Checks a password; false for a wrong one or a malformed hash. Throws PasswordHashingBusy when the queue is full. */
export async function verifyPassword(passwordHash: string, password: string, priority: HashPriority = "later"): Promise<boolean> {
  return runHash(async () => {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }, priority);
}

/**
 * A real hash to verify against when the email is unknown, so timing does not reveal which emails exist.
 * Made once, outside the queue's bound (it must not be refused); made again if making it failed.
 */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= runHash(() => hash("decoy password that nobody has", ARGON2ID_OPTIONS), "first", false).catch((error: unknown) => {
    decoyHash = undefined;
    throw error;
  });
  return decoyHash;
}
