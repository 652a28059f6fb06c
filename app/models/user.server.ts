import { isUniqueViolation } from "~/lib/db-dialect.server";
import { db } from "~/lib/db.server";
import { DomainError } from "~/lib/domain-error";
import { newId, nowIso } from "~/lib/ids.server";
import { hashPassword, type HashPriority } from "./password.server";

export interface User {
  id: string;
  email: string;
}

export class EmailTakenError extends Error {
  constructor() {
    super("Email already exists");
  }
}

/** The email cannot be an address (e.g. it holds U+0000); the schemas normally refuse it first. */
export class InvalidEmailError extends DomainError {
  constructor() {
    super(422, "Enter a valid email address");
  }
}

/** Creates an account; email must already be normalised (credentialsSchema). */
export async function createUser(email: string, password: string, hashPriority: HashPriority = "later"): Promise<User> {
  // No valid address holds U+0000 (PostgreSQL could not store it either): refused like a malformed one.
  if (email.includes("\u0000")) throw new InvalidEmailError();
  const existing = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
  if (existing) throw new EmailTakenError();
  const user = { id: newId(), email };
  const password_hash = await hashPassword(password, hashPriority);
  try {
    await db.insertInto("users").values({ ...user, password_hash, created_at: nowIso() }).execute();
  } catch (error) {
    // Two registrations racing for one email: the unique index decides (by error code, on both engines).
    if (isUniqueViolation(error)) throw new EmailTakenError();
    throw error;
  }
  return user;
}

export async function getUserWithPasswordByEmail(email: string) {
  // Emails are stored lower-cased (credentialsSchema) and compared exactly, the same on both engines;
  // one with U+0000 cannot exist (createUser refuses it), and PostgreSQL would refuse the parameter.
  if (email.includes("\u0000")) return undefined;
  return db.selectFrom("users").select(["id", "email", "password_hash"]).where("email", "=", email).executeTakeFirst();
}
