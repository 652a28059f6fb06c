import { hash, verify, type Algorithm } from "@node-rs/argon2";

// OWASP's argon2id baseline: 19 MiB of memory, 2 iterations, 1 lane. Algorithm is a const enum (2 = Argon2id).
const ARGON2ID_OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
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
