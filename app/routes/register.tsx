import { useEffect, useRef, useState } from "react";
import { data, Link, useActionData, useFetcher, useLoaderData, useNavigate } from "react-router";
import { AuthHeader, PASSWORD_RULE_ID, PasswordRule, PasswordToggle } from "~/components/accounts/auth-parts";
import { EnhancedField } from "~/components/ui/enhanced-field";
import { loginNote } from "~/auth/login-note.server";
import { clientAddress } from "~/lib/http/client-address.server";
import { firstIssue } from "~/lib/screens/validation.server";
import { readFormData } from "~/lib/http/bodies.server";
import { busyMessage, registerWithPassword, registrationThrottledMessage } from "~/models/accounts/credentials.server";
import { credentialsSchema, EMAIL_MAX, PASSWORD_MIN } from "~/common/account-rules";
import { EmailTakenError, INVITATION_NEEDED_MESSAGE, REGISTRATION_CLOSED_MESSAGE } from "~/models/accounts/user.server";
import { invitationIsUsable } from "~/models/accounts/invitation.server";
import { env } from "~/lib/settings/env.server";
import { ssoLink } from "~/auth/oidc.server";
import { screenTranslator } from "~/auth/screen-language.server";
import { accountText } from "~/common/account-rules";
import { msg } from "~/common/i18n/translate";
import { useT } from "~/components/ui/i18n";
import signInStylesheet from "~/styles/sign-in.css?url";
import type { Route } from "./+types/register";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: signInStylesheet }];

/** docs/screens.md#states-and-transitions: after registering, show success and go to /login after 1.5 s. */
const REGISTER_REDIRECT_MS = 1500;
const SUCCESS_MESSAGE = msg("Account created! Redirecting to login...");

/** A refusal keeps the email typed (the form shows it again without JavaScript); never the passwords. */
function failure(message: string, status: number, email: string, headers?: HeadersInit) {
  return data({ ok: false as const, message, email }, { status, headers });
}

/**
 * The action's Retry-After (429, 503) reaches the page's answer too, beside the parent routes' headers;
 * so does the login note a success leaves (Login then opens with the email filled in).
 */
export const headers: Route.HeadersFunction = ({ actionHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  for (const cookie of actionHeaders.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
};

/**
 * REGISTRATION (decision 0046): open shows the form; invite shows it only for a usable invitation link
 * (`/register?invite=CODE`, the code carried on as a hidden field), else says an invitation is needed;
 * closed says registration is closed. The server renders it all: no script decides. With single sign-on,
 * "Sign up with {name}" beside the form joins through the provider instead, the invitation carried along.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const passwordMin = PASSWORD_MIN;
  if (env.registration === "closed")
    return { refusal: REGISTRATION_CLOSED_MESSAGE, invite: null, sso: null, passwordMin };
  if (env.registration === "open") return { refusal: null, invite: null, sso: ssoLink("/dashboard"), passwordMin };
  const invite = new URL(request.url).searchParams.get("invite")?.trim() ?? "";
  return (await invitationIsUsable(invite))
    ? { refusal: null, invite, sso: ssoLink("/dashboard", invite), passwordMin }
    : { refusal: INVITATION_NEEDED_MESSAGE, invite: null, sso: null, passwordMin };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { t } = await screenTranslator(context, request);
  const form = await readFormData(request);
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  const confirm = String(form.get("confirmPassword") ?? "");
  const kept = email.slice(0, EMAIL_MAX);
  const failed = (reason: string) => t("❌ Registration failed: {{reason}}", { reason: accountText(t, reason) });
  if (!email.trim() || !password || !confirm) return failure(t("⚠️ Please fill in all fields."), 400, kept);
  if (password !== confirm) return failure(t("❌ Passwords do not match."), 400, kept);
  const parsed = credentialsSchema.safeParse({ email, password });
  if (!parsed.success) return failure(failed(firstIssue(parsed.error)), 400, kept);
  try {
    const invite = String(form.get("invite") ?? "").trim() || null;
    const result = await registerWithPassword(parsed.data.email, parsed.data.password, clientAddress(context), invite);
    if (!result.ok && result.reason === "closed") return failure(`❌ ${t(REGISTRATION_CLOSED_MESSAGE)}`, 403, kept);
    if (!result.ok && result.reason === "invitation") return failure(`❌ ${t(INVITATION_NEEDED_MESSAGE)}`, 403, kept);
    if (!result.ok) {
      const busy = result.reason === "busy";
      const reason = busy
        ? busyMessage(result.retryAfterSeconds)
        : registrationThrottledMessage(result.retryAfterSeconds);
      return failure(failed(reason), busy ? 503 : 429, kept, {
        "Retry-After": String(result.retryAfterSeconds),
      });
    }
  } catch (error) {
    if (error instanceof EmailTakenError) return failure(t("⚠️ That email is already registered."), 409, kept);
    throw error;
  }
  return data(
    { ok: true as const, message: t(SUCCESS_MESSAGE), enhanced: form.get("enhanced") === "1" },
    { headers: { "Set-Cookie": await loginNote.set({ email: parsed.data.email }) } },
  );
}

export default function Register() {
  const { t } = useT();
  const { refusal, invite, sso, passwordMin } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<typeof action>();
  const actionData = useActionData<typeof action>();
  const result = fetcher.data ?? actionData;
  const navigate = useNavigate();
  const handled = useRef<unknown>(null);
  const [passwordShown, setPasswordShown] = useState(false);
  const passwordType = passwordShown ? "text" : "password";

  useEffect(() => {
    if (!fetcher.data?.ok || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    const timer = setTimeout(() => navigate("/login"), REGISTER_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [fetcher.data, navigate]);

  const busy = fetcher.state !== "idle";
  return (
    <main className="page page-narrow auth-page">
      {/* Without JavaScript the browser follows this after 1.5 s (React hoists it into <head>). */}
      {result?.ok && !fetcher.data ? <meta httpEquiv="refresh" content="1.5;url=/login" /> : null}
      <title>{t("Register · Creative AI Studio")}</title>
      <meta
        name="description"
        content={t("Create your Creative AI Studio account: write, draw, speak, film and generate on your own server.")}
      />
      <AuthHeader />
      <h1>{t("Create Account")}</h1>
      {/* After a success the loader may already find the invitation used: the success stays in view. */}
      {refusal && !result?.ok ? (
        <p className="card message message-error" role="alert">
          {t(refusal)}
        </p>
      ) : (
        <fetcher.Form method="post" className="card form" aria-label={t("Register")} noValidate>
          <EnhancedField />
          {invite ? <input type="hidden" name="invite" value={invite} /> : null}
          <label>
            {t("Email")}
            <input
              type="email"
              name="email"
              autoComplete="email"
              maxLength={254}
              defaultValue={result && !result.ok ? result.email : undefined}
            />
          </label>
          <label>
            {t("Password")}
            <input
              id="register-password"
              type={passwordType}
              name="password"
              autoComplete="new-password"
              maxLength={256}
              aria-describedby={PASSWORD_RULE_ID}
            />
          </label>
          {/* Outside the label: it describes the field, it is not part of its name. */}
          <PasswordRule min={passwordMin} />
          <label>
            {t("Confirm Password")}
            <input
              id="register-confirm"
              type={passwordType}
              name="confirmPassword"
              autoComplete="new-password"
              maxLength={256}
            />
          </label>
          <PasswordToggle
            shown={passwordShown}
            onToggle={() => setPasswordShown((shown) => !shown)}
            controls="register-password register-confirm"
          />
          {result ? (
            <p
              className={`message ${result.ok ? "message-success" : "message-error"}`}
              role={result.ok ? "status" : "alert"}
            >
              {result.message}
            </p>
          ) : null}
          <button type="submit" className="button button-primary" disabled={busy || !!result?.ok}>
            {busy ? t("Creating...") : t("Create Account")}
          </button>
        </fetcher.Form>
      )}
      {sso && !refusal && !result?.ok ? (
        <a className="button sso-link" href={sso.href}>
          {t("Sign up with {{name}}", { name: sso.name })}
        </a>
      ) : null}
      <p className="muted">
        {t("Already have an account?")} <Link to="/login">{t("Log in")}</Link>
      </p>
    </main>
  );
}
