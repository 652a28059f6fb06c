import { db } from "~/lib/db.server";
import { newId, nowIso } from "~/lib/ids.server";
import { hashPassword } from "./password.server";

export interface User {
  id: string;
  email: string;
}

export class EmailTakenError extends Error {
  constructor() {
    super("Email already exists");
  }
}

/** Creates an account; email must already be normalised (credentialsSchema). */
export async function createUser(email: string, password: string): Promise<User> {
  const existing = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
  if (existing) throw new EmailTakenError();
  const user = { id: newId(), email };
  const password_hash = await hashPassword(password);
  try {
    await db.insertInto("users").values({ ...user, password_hash, created_at: nowIso() }).execute();
  } catch (error) {
    // Two registrations racing for one email: the unique index decides.
    if (String((error as Error).message).toLowerCase().includes("unique")) throw new EmailTakenError();
    throw error;
  }
  return user;
}

export async function getUserById(id: string): Promise<User | undefined> {
  return db.selectFrom("users").select(["id", "email"]).where("id", "=", id).executeTakeFirst();
}

export async function getUserWithPasswordByEmail(email: string) {
  return db.selectFrom("users").select(["id", "email", "password_hash"]).where("email", "=", email).executeTakeFirst();
}
