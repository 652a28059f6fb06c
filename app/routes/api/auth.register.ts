import { apiError, clientAddress, parseApiInput, readJsonBody } from "~/lib/http.server";
import { registerWithPassword, registrationThrottledMessage } from "~/models/auth.server";
import { credentialsSchema } from "~/shared/credentials";
import { EmailTakenError } from "~/models/user.server";
import type { Route } from "./+types/auth.register";

/** POST /api/auth/register {email, password} -> 201 {id, email}; taken -> 409; too many from one address -> 429. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed");
  const { email, password } = parseApiInput(credentialsSchema, await readJsonBody(request));
  try {
    const result = await registerWithPassword(email, password, clientAddress(request));
    if (!result.ok) {
      return apiError(429, registrationThrottledMessage(result.retryAfterSeconds), { "Retry-After": String(result.retryAfterSeconds) });
    }
    return Response.json(result.user, { status: 201 });
  } catch (error) {
    if (error instanceof EmailTakenError) return apiError(409, "Email already exists");
    throw error;
  }
}

export const loader = () => apiError(405, "Method not allowed", { Allow: "POST" });
