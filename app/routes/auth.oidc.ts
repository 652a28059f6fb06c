import { startOidcSignIn } from "~/auth/oidc.server";
import type { Route } from "./+types/auth.oidc";

/** GET /auth/oidc: the Login screen's "Sign in with …" link starts single sign-on here (404 without it). */
export function loader({ request, context }: Route.LoaderArgs) {
  return startOidcSignIn(request, context);
}
