import { refuseMethod } from "~/lib/http/responder.server";
import { requireApiUser } from "~/auth/auth.server";
import type { Route } from "./+types/auth.me";

/** GET /api/auth/me: who the bearer token (or session cookie) belongs to. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireApiUser(context, request);
  return Response.json({ id: user.id, email: user.email });
}

export const action = refuseMethod("GET");
