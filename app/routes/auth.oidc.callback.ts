import { finishOidcSignIn } from "~/auth/oidc.server";
import type { Route } from "./+types/auth.oidc.callback";

/** GET /auth/oidc/callback: the provider sends the browser back here; signed in, or /login with a message. */
export function loader({ request, context }: Route.LoaderArgs) {
  return finishOidcSignIn(request, context);
}
