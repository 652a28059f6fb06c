import { redirect } from "react-router";
import { loginNote } from "~/auth/login-note.server";
import { endSession } from "~/auth/session.server";
import type { Route } from "./+types/logout";

/**
 * docs/screens.md#screens-and-routes: Logout clears both tokens (the cookie's pair, revoked server-side) and goes to /login,
 * which then says the person has signed out (docs/screens.md#sign-in-screens).
 */
export async function action({ request }: Route.ActionArgs) {
  const headers = new Headers();
  headers.append("Set-Cookie", await endSession(request));
  headers.append("Set-Cookie", await loginNote.set({ signedOut: true }));
  throw redirect("/login", { headers });
}

export function loader() {
  throw redirect("/login");
}
