import { z } from "zod";
import { requireApiUser, requireSignedInCaller } from "~/auth/auth.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { apiAction, requireMethod } from "~/lib/http/responder.server";
import { DomainError } from "~/lib/domain-error";
import { firstIssue } from "~/lib/screens/validation.server";
import { apiTokenNameSchema, createApiToken, listApiTokens } from "~/models/accounts/api-token.server";
import type { Route } from "./+types/account.tokens";

/** GET /api/account/tokens -> {tokens: [{id, name, created_at, last_used_at}]}, newest first; never a token. */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  return Response.json({ tokens: await listApiTokens(user.id) });
});

const createSchema = z.object({ name: apiTokenNameSchema }, { error: "Send a JSON object with a name" });

/**
 * POST /api/account/tokens {name} -> 201 {id, name, token, created_at}: the token, shown this once.
 * A blank or over-long name is 400; past the per-person limit 409. Made with a personal API token: 403
 * (requireSignedInCaller), a script cannot make itself more tokens.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"], "GET, POST");
  const { user } = await requireSignedInCaller(context, request);
  const parsed = createSchema.safeParse(await readJsonBody(request));
  if (!parsed.success) throw new DomainError(400, firstIssue(parsed.error));
  return Response.json(await createApiToken(user.id, parsed.data.name), { status: 201 });
});
