import { useEffect, useRef, useState } from "react";
import { data, Form, Link, useActionData, useFetcher, useNavigate, useRouteLoaderData } from "react-router";
import { alertInApp } from "~/browser/app-dialogs";
import { AuthHeader, PasswordToggle } from "~/components/accounts/auth-parts";
import { EnhancedField } from "~/components/ui/enhanced-field";
import { FlashMessage } from "~/components/shell/flash-message";
import { loginNote } from "~/auth/login-note.server";
import { authenticateLoginForm, currentUser, LoginError } from "~/auth/auth.server";
import { screenTranslator } from "~/auth/screen-language.server";
import { accountText } from "~/common/account-rules";
import { msg } from "~/common/i18n/translate";
import { useT } from "~/components/ui/i18n";
import { safeRedirectPath } from "~/common/safe-redirect";
import { ssoLink } from "~/auth/oidc.server";
import { commitTokenPair } from "~/auth/session.server";
import { readFormData } from "~/lib/http/bodies.server";
import { answerEnhanced } from "~/lib/screens/enhanced-answer.server";
import { issueTokenPair } from "~/models/accounts/token-pair.server";
import signInStylesheet from "~/styles/sign-in.css?url";
import type { loader as rootLoader } from "~/root";
import type { Route } from "./+types/login";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: signInStylesheet }];

/** docs/screens.md#states-and-transitions: after a successful login wait about 300 ms, then go to the dashboard. */
const LOGIN_REDIRECT_MS = 300;

/** What the screen says after Logout (docs/screens.md#sign-in-screens). */
export const SIGNED_OUT_TEXT = msg("You have signed out.");

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = currentUser(context);
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
  // Left by Create Account (the email to sign in with) or by Logout; read once.
  const note = await loginNote.take(request);
  return data(
    {
      signedInAs: user?.email ?? null,
      redirectTo,
      sso: ssoLink(redirectTo),
      email: note.value?.email ?? null,
      signedOut: note.value?.signedOut === true && !user,
    },
    { headers: note.clear ? { "Set-Cookie": note.clear } : undefined },
  );
}

/**
 * The action's Retry-After (429, 503) reaches the page's answer too, beside the parent routes' headers;
 * so does the loader's clearing of the login note.
 */
export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  for (const cookie of loaderHeaders.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
};

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request.clone());
  const redirectTo = safeRedirectPath(form.get("redirectTo"));
  let user;
  try {
    user = await authenticateLoginForm(request, context);
  } catch (error) {
    if (error instanceof LoginError) {
      const headers = error.retryAfterSeconds === null ? undefined : { "Retry-After": String(error.retryAfterSeconds) };
      const { t } = await screenTranslator(context, request);
      return data({ ok: false as const, error: accountText(t, error.message) }, { status: error.status, headers });
    }
    throw error;
  }
  const setCookie = await commitTokenPair(
    request,
    await issueTokenPair(user.id, new Date(), request.headers.get("User-Agent")),
  );
  const headers = { "Set-Cookie": setCookie };
  return answerEnhanced(form, {
    data: { ok: true as const, redirectTo },
    init: { headers },
    redirectTo,
    redirectInit: { headers },
  });
}

/** The page's <title> and description (React hoists them into <head>), in each of its states. */
function LoginHead() {
  const { t } = useT();
  return (
    <>
      <title>{t("Login · Creative AI Studio")}</title>
      <meta name="description" content={t("Sign in to Creative AI Studio, your self-hosted creative AI workspace.")} />
    </>
  );
}

export default function Login({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  const fetcher = useFetcher<typeof action>();
  const actionData = useActionData<typeof action>();
  const result = fetcher.data ?? actionData;
  const navigate = useNavigate();
  const alerted = useRef<unknown>(null);
  const [passwordShown, setPasswordShown] = useState(false);
  const flash = useRouteLoaderData<typeof rootLoader>("root")?.toast;

  // Why the person is here (e.g. "Please log in again.", the reason a screen sent them with) is also
  // said in the app's alert, in the same words.
  const explained = useRef<unknown>(null);
  useEffect(() => {
    if (flash?.type !== "error" || explained.current === flash) return;
    explained.current = flash;
    void alertInApp(t(flash.message));
    // Only a new flash is alerted; its words are the language's already.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [flash]);

  useEffect(() => {
    if (!fetcher.data || alerted.current === fetcher.data) return;
    alerted.current = fetcher.data;
    if (fetcher.data.ok) {
      const timer = setTimeout(
        () => navigate(fetcher.data?.ok ? fetcher.data.redirectTo : "/dashboard"),
        LOGIN_REDIRECT_MS,
      );
      return () => clearTimeout(timer);
    }
    // docs/screens.md#error-messages: the failure is alerted (in the app's alert) as well as said in the form.
    void alertInApp(fetcher.data.error);
  }, [fetcher.data, navigate]);

  // After a successful fetcher login the loader revalidates and sees the new session: keep showing the
  // success message until the redirect instead of flashing the signed-in variant.
  if (loaderData.signedInAs && !fetcher.data?.ok) {
    return (
      <main className="page page-narrow auth-page">
        <LoginHead />
        <AuthHeader />
        <h1>{t("You are logged in")}</h1>
        <p className="muted">{t("Signed in as {{email}}.", { email: loaderData.signedInAs })}</p>
        <div className="stack">
          <Form method="post" action="/logout">
            <button type="submit" className="button button-danger">
              {t("Logout")}
            </button>
          </Form>
          <Link className="button" to="/dashboard">
            {t("Return to Dashboard")}
          </Link>
          <Link className="button button-ghost" to="/">
            {t("Go Home")}
          </Link>
        </div>
      </main>
    );
  }

  const busy = fetcher.state !== "idle";
  return (
    <main className="page page-narrow auth-page">
      <LoginHead />
      <AuthHeader />
      <h1>{t("Login")}</h1>
      {loaderData.signedOut ? (
        <p className="message message-success auth-note" role="status">
          {t(SIGNED_OUT_TEXT)}
        </p>
      ) : null}
      <FlashMessage />
      <fetcher.Form method="post" className="card form" aria-label={t("Login")}>
        <EnhancedField />
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <label>
          {t("Email")}
          <input
            type="email"
            name="email"
            autoComplete="email"
            required
            maxLength={254}
            defaultValue={loaderData.email ?? undefined}
          />
        </label>
        <label>
          {t("Password")}
          <input
            id="login-password"
            type={passwordShown ? "text" : "password"}
            name="password"
            autoComplete="current-password"
            required
            maxLength={256}
            // Just registered: the email is filled in, the password is what is left to type.
            // eslint-disable-next-line jsx-a11y/no-autofocus
            autoFocus={!!loaderData.email}
          />
        </label>
        <PasswordToggle
          shown={passwordShown}
          onToggle={() => setPasswordShown((shown) => !shown)}
          controls="login-password"
        />
        {result && !result.ok ? (
          <p className="message message-error" role="alert">
            {result.error}
          </p>
        ) : null}
        {result?.ok ? (
          <p className="message message-success" role="status">
            {t("Logged in. Opening your dashboard...")}
          </p>
        ) : null}
        <button type="submit" className="button button-primary" disabled={busy || !!result?.ok}>
          {busy ? t("Logging in...") : t("Login")}
        </button>
      </fetcher.Form>
      {loaderData.sso ? (
        <a className="button sso-link" href={loaderData.sso.href}>
          {t("Sign in with {{name}}", { name: loaderData.sso.name })}
        </a>
      ) : null}
      <p className="muted">
        {t("No account yet?")} <Link to="/register">{t("Create one")}</Link>
      </p>
    </main>
  );
}
