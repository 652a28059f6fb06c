import os from "node:os";
import { hash, verify, type Algorithm } from "@node-rs/argon2";
import { DomainError } from "~/lib/domain-error";
import { env } from "~/lib/settings/env.server";

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
    super(
      503,
      `The server is busy checking passwords. Please try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}.`,
      {
        headers: { "Retry-After": String(retryAfterSeconds) },
        code: "password-hashing-busy",
      },
    );
  }
}

/**
 * One argon2id hash is tens of milliseconds of CPU on a libuv thread. Left alone, a burst of sign-ins
 * (four hashing threads by default) takes every core of a small machine and every other request waits
 * for the event loop's share: at most one hash per core but one runs at a time, the others queue.
 *
 * The queue is bounded: at most PASSWORD_HASH_QUEUE_MAX (default 16) hashes wait, and never more than
 * PASSWORD_HASH_QUEUE_SECONDS (1.5) of work at the recent time per hash (a loaded machine hashes slower, so fewer may
 * wait). A hash asked for beyond it is refused at once (PasswordHashingBusy, 503 with Retry-After)
 * instead of making everyone wait longer and longer. `later` hashes may take only half of the queue,
 * and `first` ones are started before any `later` one.
 */
const slots = Math.max(1, os.availableParallelism() - 1);
let running = 0;

interface Waiter {
  start: () => void;
  refuse: (error: PasswordHashingBusy) => void;
  /** False for the decoy hash, which is never refused. */
  bounded: boolean;
}
const firstQueue: Waiter[] = [];
const laterQueue: Waiter[] = [];
/** Recent time of one hash (moving average): the queue's bound in time, and Retry-After. */
let averageHashMs = 50;

const queued = () => firstQueue.length + laterQueue.length;

/** How many hashes may wait now: PASSWORD_HASH_QUEUE_MAX, or fewer when hashes are slow (PASSWORD_HASH_QUEUE_SECONDS of work). */
function queueLimit(): number {
  const byTime = Math.floor((env.passwordHashQueueMs / averageHashMs) * slots);
  return Math.min(env.passwordHashQueueMax, Math.max(4, byTime));
}

function busy(): PasswordHashingBusy {
  const waitMs = ((queued() + running) * averageHashMs) / slots;
  return new PasswordHashingBusy(Math.max(1, Math.ceil(waitMs / 1000)));
}

/** The refusal a hash of this priority would get now (the queue has no room for it), or null. */
export function hashQueueRefusal(priority: HashPriority): PasswordHashingBusy | null {
  if (running < slots) return null;
  const limit = priority === "first" ? queueLimit() : Math.ceil(queueLimit() / 2);
  return queued() < limit ? null : busy();
}

/**
 * When hashes got slower, fewer may wait: the newest waiting ones past the bound are refused (503),
 * `later` ones before `first` ones, so what waits is again about PASSWORD_HASH_QUEUE_SECONDS of work.
 */
function shed(): void {
  const limit = queueLimit();
  const refuseNewest = (queue: Waiter[]) => {
    for (let index = queue.length - 1; index >= 0; index--) {
      if (!queue[index].bounded) continue;
      const [waiter] = queue.splice(index, 1);
      waiter.refuse(busy());
      return true;
    }
    return false;
  };
  while (laterQueue.length > Math.ceil(limit / 2) && refuseNewest(laterQueue));
  while (queued() > limit && (refuseNewest(laterQueue) || refuseNewest(firstQueue)));
}

async function runHash<T>(work: () => Promise<T>, priority: HashPriority, bounded = true): Promise<T> {
  const refusal = bounded ? hashQueueRefusal(priority) : null;
  if (refusal) throw refusal;
  if (running < slots) running++;
  else {
    // The slot is handed over on release (start), or the wait ends in a refusal (shed).
    await new Promise<void>((start, refuse) =>
      (priority === "first" ? firstQueue : laterQueue).push({ start, refuse, bounded }),
    );
  }
  const started = performance.now();
  try {
    return await work();
  } finally {
    averageHashMs = averageHashMs * 0.7 + (performance.now() - started) * 0.3;
    shed();
    const next = firstQueue.shift() ?? laterQueue.shift();
    if (next) next.start();
    else running--;
  }
}

/** How many hashes run now, wait, the most that may run at once and wait now (GET /api/health could show it; tests read it). */
export function passwordHashing(): { running: number; queued: number; slots: number; queueMax: number } {
  return { running, queued: queued(), slots, queueMax: queueLimit() };
}

/** Hashes a new password (registration): a `later` hash; throws PasswordHashingBusy when the queue is full. */
export function hashPassword(password: string, priority: HashPriority = "later"): Promise<string> {
  return runHash(() => hash(password, ARGON2ID_OPTIONS), priority);
}

/** Checks a password; false for a wrong one or a malformed hash. Throws PasswordHashingBusy when the queue is full. */
export async function verifyPassword(
  passwordHash: string,
  password: string,
  priority: HashPriority = "later",
): Promise<boolean> {
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
  decoyHash ??= runHash(() => hash("decoy password that nobody has", ARGON2ID_OPTIONS), "first", false).catch(
    (error: unknown) => {
      decoyHash = undefined;
      throw error;
    },
  );
  return decoyHash;
}
