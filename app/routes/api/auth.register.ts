import { DomainError } from "~/lib/domain-error";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { clientAddress } from "~/lib/http/client-address.server";
import { parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { busyMessage, registerWithPassword, registrationThrottledMessage } from "~/models/accounts/credentials.server";
import { credentialsSchema } from "~/common/account-rules";
import { EmailTakenError, INVITATION_NEEDED_MESSAGE, REGISTRATION_CLOSED_MESSAGE } from "~/models/accounts/user.server";
import { isRecord } from "~/lib/screens/validation.server";
import type { Route } from "./+types/auth.register";

/**
 * POST /api/auth/register {email, password, invite?} -> 201 {id, email}; taken -> 409; too many from one
 * address -> 429; hash queue full -> 503. REGISTRATION=invite: without a usable `invite` (the code of an
 * invitation link) 403; REGISTRATION=closed: 403.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const body = await readJsonBody(request);
  const { email, password } = parseInput(credentialsSchema, body);
  const invite = isRecord(body) && typeof body.invite === "string" ? body.invite.trim() : null;
  let result;
  try {
    result = await registerWithPassword(email, password, clientAddress(context), invite);
  } catch (error) {
    // The accounts model still has its own error type (app/models/accounts/user.server.ts).
    if (error instanceof EmailTakenError) throw new DomainError(409, "Email already exists");
    throw error;
  }
  if (!result.ok && result.reason === "closed") throw new DomainError(403, REGISTRATION_CLOSED_MESSAGE);
  if (!result.ok && result.reason === "invitation") throw new DomainError(403, INVITATION_NEEDED_MESSAGE);
  if (!result.ok) {
    const retryAfter = String(result.retryAfterSeconds);
    if (result.reason === "busy")
      throw new DomainError(503, busyMessage(result.retryAfterSeconds), { headers: { "Retry-After": retryAfter } });
    throw new DomainError(429, registrationThrottledMessage(result.retryAfterSeconds), {
      headers: { "Retry-After": retryAfter },
    });
  }
  return Response.json(result.user, { status: 201 });
});

export const loader = refuseMethod("POST");
