import { useEffect, useRef, useState } from "react";
import { data, Form, Link, useActionData, useFetcher, useNavigate, useRouteLoaderData } from "react-router";
import { alertInApp } from "~/browser/app-dialogs";
import { AuthHeader, PasswordToggle } from "~/components/accounts/auth-parts";
import { EnhancedField } from "~/components/ui/enhanced-field";
import { FlashMessage } from "~/components/shell/flash-message";
import { loginNote } from "~/auth/login-note.server";
import { authenticateLoginForm, currentUser, LoginError } from "~/auth/auth.server";
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

export const meta: Route.MetaFunction = () => [
  { title: "Login · Creative AI Studio" },
  { name: "description", content: "Sign in to Creative AI Studio, your self-hosted creative AI workspace." },
];

/** docs/screens.md#states-and-transitions: after a successful login wait about 300 ms, then go to the dashboard. */
const LOGIN_REDIRECT_MS = 300;

/** What the screen says after Logout (docs/screens.md#sign-in-screens). */
export const SIGNED_OUT_TEXT = "You have signed out.";

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
      return data({ ok: false as const, error: error.message }, { status: error.status, headers });
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

export default function Login({ loaderData }: Route.ComponentProps) {
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
    void alertInApp(flash.message);
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
        <AuthHeader />
        <h1>You are logged in</h1>
        <p className="muted">Signed in as {loaderData.signedInAs}.</p>
        <div className="stack">
          <Form method="post" action="/logout">
            <button type="submit" className="button button-danger">
              Logout
            </button>
          </Form>
          <Link className="button" to="/dashboard">
            Return to Dashboard
          </Link>
          <Link className="button button-ghost" to="/">
            Go Home
          </Link>
        </div>
      </main>
    );
  }

  const busy = fetcher.state !== "idle";
  return (
    <main className="page page-narrow auth-page">
      <AuthHeader />
      <h1>Login</h1>
      {loaderData.signedOut ? (
        <p className="message message-success auth-note" role="status">
          {SIGNED_OUT_TEXT}
        </p>
      ) : null}
      <FlashMessage />
      <fetcher.Form method="post" className="card form" aria-label="Login">
        <EnhancedField />
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <label>
          Email
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
          Password
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
            Logged in. Opening your dashboard...
          </p>
        ) : null}
        <button type="submit" className="button button-primary" disabled={busy || !!result?.ok}>
          {busy ? "Logging in..." : "Login"}
        </button>
      </fetcher.Form>
      {loaderData.sso ? (
        <a className="button sso-link" href={loaderData.sso.href}>
          {`Sign in with ${loaderData.sso.name}`}
        </a>
      ) : null}
      <p className="muted">
        No account yet? <Link to="/register">Create one</Link>
      </p>
    </main>
  );
}
