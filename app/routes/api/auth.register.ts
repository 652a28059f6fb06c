import { apiError, parseApiInput, readJsonBody } from "~/lib/http.server";
import { credentialsSchema } from "~/models/credentials";
import { createUser, EmailTakenError } from "~/models/user.server";
import type { Route } from "./+types/auth.register";

/** POST /api/auth/register {email, password} -> 201 {id, email}; taken -> 409. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed");
  const { email, password } = parseApiInput(credentialsSchema, await readJsonBody(request));
  try {
    const user = await createUser(email, password);
    return Response.json(user, { status: 201 });
  } catch (error) {
    if (error instanceof EmailTakenError) return apiError(409, "Email already exists");
    throw error;
  }
}

export const loader = () => apiError(405, "Method not allowed", { Allow: "POST" });
