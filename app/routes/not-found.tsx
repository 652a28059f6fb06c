import { data, Link, useRouteLoaderData } from "react-router";
import { AppShell } from "~/components/shell/shell-frame";
import { currentUser } from "~/auth/auth.server";
import { preferencesOf } from "~/lib/screens/preferences.server";
import type { loader as rootLoader } from "~/root";
import { useT } from "~/components/ui/i18n";
import type { Route } from "./+types/not-found";

/** A signed-in person's 404 sits inside the app shell: the plan is the shell's account corner. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const plan = currentUser(context) ? (await preferencesOf(context, request)).plan : null;
  return data({ plan }, { status: 404 });
}

export function action() {
  return data(null, { status: 404 });
}

export default function NotFound({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  const rootData = useRouteLoaderData<typeof rootLoader>("root");
  const email = rootData?.user?.email;
  const plan = loaderData?.plan;
  // Home for a signed-in person is their dashboard; the landing page is the signed-out front door.
  const page = (
    <main className="page page-narrow error-page">
      <title>{t("Page not found · Creative AI Studio")}</title>
      <h1>404</h1>
      <p>{t("This page does not exist.")}</p>
      <Link className="button button-primary" to={email && plan ? "/dashboard" : "/"}>
        {t("Return Home")}
      </Link>
    </main>
  );
  if (!email || !plan) return page;
  return (
    <AppShell email={email} plan={plan}>
      {page}
    </AppShell>
  );
}
