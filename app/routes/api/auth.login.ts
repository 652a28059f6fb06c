import { DomainError } from "~/lib/domain-error";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { clientAddress } from "~/lib/http/client-address.server";
import { isRecord, parseInput } from "~/lib/screens/validation.server";
import { readFormData, readJsonBody } from "~/lib/http/bodies.server";
import {
  ACCOUNT_DISABLED_MESSAGE,
  busyMessage,
  loginWithPassword,
  throttledMessage,
} from "~/models/accounts/credentials.server";
import { loginSchema } from "~/common/account-rules";
import { issueTokenPair } from "~/models/accounts/token-pair.server";
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
      if (error instanceof Response) throw new DomainError(error.status, await error.text());
      throw error;
    }
    return { email: form.get("email") ?? form.get("username") ?? "", password: form.get("password") ?? "" };
  }
  const body = await readJsonBody(request);
  return isRecord(body) && body.email === undefined && typeof body.username === "string"
    ? { ...body, email: body.username }
    : body;
}

/**
 * POST /api/auth/login -> {access_token, refresh_token, token_type}; bad credentials 401; too many failures
 * (account or address) 429; a disabled account (right password) 403, before any password is hashed; the server's hash queue full 503. Both with Retry-After.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const { email, password } = parseInput(loginSchema, await readCredentials(request));
  const result = await loginWithPassword(email, password, clientAddress(context));
  if (!result.ok && result.reason === "throttled") {
    throw new DomainError(429, throttledMessage(result.retryAfterSeconds), {
      headers: { "Retry-After": String(result.retryAfterSeconds) },
    });
  }
  if (!result.ok && result.reason === "busy") {
    throw new DomainError(503, busyMessage(result.retryAfterSeconds), {
      headers: { "Retry-After": String(result.retryAfterSeconds) },
    });
  }
  if (!result.ok && result.reason === "disabled") throw new DomainError(403, ACCOUNT_DISABLED_MESSAGE);
  if (!result.ok)
    throw new DomainError(401, "Incorrect email or password", { headers: { "WWW-Authenticate": "Bearer" } });
  return Response.json(await issueTokenPair(result.user.id, new Date(), request.headers.get("User-Agent")), {
    headers: { "Cache-Control": "no-store" },
  });
});

export const loader = refuseMethod("POST");
