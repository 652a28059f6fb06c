import {
  data,
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { useNonce } from "./components/shell/nonce";
import type { ScriptsHandle } from "./components/shell/shell-frame";
import { useTheme } from "./components/shell/theme-toggle";
import { AppDialogHost } from "./components/shell/app-dialog-host";
import { useRequestId } from "./components/shell/error-reference";
import { Toasts } from "./components/shell/toasts";
import { currentUser } from "./auth/auth.server";
import { choosableLanguages, screenLanguageOf } from "./auth/screen-language.server";
import { directionOf, nameOf } from "./common/i18n/languages";
import { catalogueUrl } from "./lib/i18n/catalogues.server";
import { useT } from "./components/ui/i18n";
import { sessionMiddleware } from "./auth/session-middleware.server";
import { outageMiddleware } from "./lib/http/outage-middleware.server";
import { observeMiddleware } from "./lib/observe/observe-middleware.server";
import { securityMiddleware } from "./lib/http/security.server";
import { preferencesOf } from "./lib/screens/preferences.server";
import { getToast } from "./lib/screens/toast.server";
import { startApp } from "./services/operators/background.server";
import appStylesheet from "./styles/app.css?url";

/**
 * Under `react-router dev` there is no front door (server/) to start the app (database, background
 * work): the first request does (idempotent). The production server starts it before it listens.
 */
const startInDevelopment: Route.MiddlewareFunction = async (_args, next) => {
  await startApp();
  return next();
};

export const middleware: Route.MiddlewareFunction[] = [
  // First: the route's pattern for the front door's metrics, log line and span, whatever follows does.
  observeMiddleware,
  ...(import.meta.env.DEV ? [startInDevelopment] : []),
  securityMiddleware,
  // Outside the session's middleware: a database out of reach while resolving the session is a 503 too.
  outageMiddleware,
  sessionMiddleware,
];

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.ico", sizes: "any" },
  // A stylesheet with a precedence is a resource React writes at the top of <head>, before the
  // scripts' modulepreloads: fetched first, it no longer waits behind ten scripts for a connection
  // before the first paint (docs/performance.md, Lighthouse on /dashboard).
  { rel: "stylesheet", href: appStylesheet, precedence: "default" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  // The toast cookie is cleared only when the browser sent one (getToast answers headers then).
  const [{ toast, headers }, preferences, language] = await Promise.all([
    getToast(request),
    preferencesOf(context, request),
    screenLanguageOf(context, request),
  ]);
  const user = currentUser(context);
  return data(
    {
      toast: toast ?? null,
      theme: preferences.theme,
      user: user ? { email: user.email } : null,
      language,
      catalogue: catalogueUrl(language),
      // The language menus' choices, each in its own language.
      languages: choosableLanguages().map((tag) => ({ tag, name: nameOf(tag) })),
    },
    { headers },
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const rootData = useRouteLoaderData<typeof loader>("root");
  const theme = useTheme();
  const withoutScripts = useMatches().some((match) => (match.handle as ScriptsHandle | undefined)?.withoutScripts);
  const { language } = useT();
  return (
    <html lang={language} dir={directionOf(language)} data-theme={theme} data-catalogue={rootData?.catalogue}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="dark light" />
        {/* Read by app/entry.client.tsx before it hydrates: fetched beside the scripts, not after them. */}
        {rootData?.catalogue && !withoutScripts ? (
          <link rel="preload" href={rootData.catalogue} as="fetch" crossOrigin="anonymous" />
        ) : null}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        {withoutScripts ? null : (
          <>
            <Toasts flash={rootData?.toast} />
            <AppDialogHost />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useT();
  const requestId = useRequestId(error);
  let title = t("Something went wrong");
  let detail = t("An unexpected error occurred. Please try again.");
  let retry = true;
  if (isRouteErrorResponse(error)) {
    retry = error.status >= 500;
    title =
      error.status === 404
        ? t("Page not found")
        : error.status === 503
          ? t("The studio is unavailable for a moment")
          : `${error.status} ${error.statusText || t("Error")}`;
    detail = typeof error.data === "string" && error.data ? t(error.data) : detail;
  } else if (import.meta.env.DEV && error instanceof Error) {
    detail = error.message;
  }
  return (
    <main className="page page-narrow error-page">
      <h1>{title}</h1>
      <p>{detail}</p>
      {/* What a person quotes when they report it: the request's id, in the log line and errors. */}
      {requestId ? (
        <p className="muted" data-request-id={requestId}>
          {t("Reference: {{id}}", { id: requestId })}
        </p>
      ) : null}
      <p className="error-page-actions">
        {/* An empty href is this very address (query included): a full load that asks the server
            again, without JavaScript too; a database or store back within seconds serves it. */}
        {retry && (
          // eslint-disable-next-line jsx-a11y/anchor-is-valid -- the empty href is the point (above)
          <a className="button button-primary" href="">
            {t("Try again")}
          </a>
        )}{" "}
        <Link className="button" to="/">
          {t("Return Home")}
        </Link>
      </p>
    </main>
  );
}
