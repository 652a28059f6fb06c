import { Outlet, useRouteLoaderData } from "react-router";
import { AppShell } from "~/components/shell/shell-frame";
import { currentUser } from "~/auth/auth.server";
import { preferencesOf } from "~/lib/screens/preferences.server";
import type { loader as rootLoader } from "~/root";
import type { Route } from "./+types/app-shell";

/** The plan for the account corner; the email comes with the root's data. Signed-out visitors (AI x AI, Feedback) get no shell. */
export async function loader({ context, request }: Route.LoaderArgs) {
  if (!currentUser(context)) return { plan: null };
  return { plan: (await preferencesOf(context, request)).plan };
}

/** The layout of the signed-in screens (app/routes.ts): the app shell around each of them. */
export default function AppShellLayout({ loaderData }: Route.ComponentProps) {
  const rootData = useRouteLoaderData<typeof rootLoader>("root");
  const email = rootData?.user?.email;
  if (!email || !loaderData.plan) return <Outlet />;
  return (
    <AppShell email={email} plan={loaderData.plan}>
      <Outlet />
    </AppShell>
  );
}
