import os from "node:os";
import { hash, verify, type Algorithm } from "@node-rs/argon2";
import { createSlots } from "~/lib/slots.server";

// OWASP's argon2id baseline: 19 MiB of memory, 2 iterations, 1 lane. Algorithm is a const enum (2 = Argon2id).
const ARGON2ID_OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * One argon2id hash is tens of milliseconds of CPU on a libuv thread. Left alone, a burst of sign-ins
 * (four hashing threads by default) takes every core of a small machine and every other request
 * waits for the event loop's share: at most one hash per core but one runs at a time, the others queue.
 */
const hashSlots = createSlots(Math.max(1, os.availableParallelism() - 1));

/** How many hashes run now and the most that may (GET /api/health could show it; tests read it). */
export function passwordHashing(): { running: number; queued: number; slots: number } {
  return { running: hashSlots.running, queued: hashSlots.queued, slots: hashSlots.size };
}

export function hashPassword(password: string): Promise<string> {
  return hashSlots.run(() => hash(password, ARGON2ID_OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashSlots.run(() => verify(passwordHash, password));
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
