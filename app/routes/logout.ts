import { redirect } from "react-router";
import { endSession } from "~/auth/session.server";
import type { Route } from "./+types/logout";

/** docs/screens.md#screens-and-routes: Logout clears both tokens (the cookie's pair, revoked server-side) and goes to /login. */
export async function action({ request }: Route.ActionArgs) {
  throw redirect("/login", { headers: { "Set-Cookie": await endSession(request) } });
}

export function loader() {
  throw redirect("/login");
}
