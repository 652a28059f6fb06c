import os from "node:os";
import { hash, verify, type Algorithm } from "@node-rs/argon2";

// OWASP's argon2id baseline: 19 MiB of memory, 2 iterations, 1 lane. Algorithm is a const enum (2 = Argon2id).
const ARGON2ID_OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * One argon2id hash is tens of milliseconds of CPU on a libuv thread. Left alone, a burst of sign-ins
 * (four hashing threads by default) takes every core of a small machine and every other request
 * waits for the event loop's share: at most one hash per core but one runs at a time, the others queue.
 */
const HASH_SLOTS = Math.max(1, os.availableParallelism() - 1);
let hashing = 0;
const queued: Array<() => void> = [];

async function inHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (hashing < HASH_SLOTS) hashing++;
  else await new Promise<void>((resolve) => queued.push(resolve)); // the slot is handed over on release
  try {
    return await work();
  } finally {
    const next = queued.shift();
    if (next) next();
    else hashing--;
  }
}

/** How many hashes run now and the most that may (GET /api/health could show it; tests read it). */
export function passwordHashing(): { running: number; queued: number; slots: number } {
  return { running: hashing, queued: queued.length, slots: HASH_SLOTS };
}

export function hashPassword(password: string): Promise<string> {
  return inHashSlot(() => hash(password, ARGON2ID_OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await inHashSlot(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

/** A real hash to verify against when the email is unknown, so timing does not reveal which emails exist. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword("decoy password that nobody has");
  return decoyHash;
}
