import { apiError, clientAddress, isRecord, parseApiInput, readFormData, readJsonBody } from "~/lib/http.server";
import { loginWithPassword, throttledMessage } from "~/models/auth.server";
import { loginSchema } from "~/shared/credentials";
import { issueTokenPair } from "~/models/token.server";
import type { Route } from "./+types/auth.login";

/** Accepts JSON {email, password}, or an OAuth2-style form with username/password. */
async function readCredentials(request: Request): Promise<unknown> {
  const type = request.headers.get("Content-Type") ?? "";
  if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
    let form: FormData;
    try {
      form = await readFormData(request);
    } catch (error) {
      // The screens' form reader answers text; the API answers {"detail"} with the same status.
      if (error instanceof Response) throw apiError(error.status, await error.text());
      throw error;
    }
    return { email: form.get("email") ?? form.get("username") ?? "", password: form.get("password") ?? "" };
  }
  const body = await readJsonBody(request);
  return isRecord(body) && body.email === undefined && typeof body.username === "string" ? { ...body, email: body.username } : body;
}

/** POST /api/auth/login -> {access_token, refresh_token, token_type}; bad credentials 401; too many failures 429. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed");
  const { email, password } = parseApiInput(loginSchema, await readCredentials(request));
  const result = await loginWithPassword(email, password, clientAddress(request));
  if (!result.ok && result.reason === "throttled") {
    return apiError(429, throttledMessage(result.retryAfterSeconds), { "Retry-After": String(result.retryAfterSeconds) });
  }
  if (!result.ok) return apiError(401, "Incorrect email or password", { "WWW-Authenticate": "Bearer" });
  return Response.json(await issueTokenPair(result.user.id), { headers: { "Cache-Control": "no-store" } });
}

export const loader = () => apiError(405, "Method not allowed", { Allow: "POST" });
