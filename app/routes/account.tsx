import { data } from "react-router";
import { withFailureFallback } from "~/browser/network-safe";
import {
  PasswordSection,
  SessionsSection,
  UsageSection,
  type AccountAnswer,
  type AccountIntent,
} from "~/components/accounts/account-sections";
import { SharedLinksSection } from "~/components/sharing/account-shares";
import { TokensSection } from "~/components/accounts/account-tokens";
import { ConfirmPanel } from "~/components/ui/confirm-panel";
import { FlashMessage } from "~/components/shell/flash-message";
import { PageHeader } from "~/components/shell/page-header";
import { LanguageMenu } from "~/components/shell/language-menu";
import { useT } from "~/components/ui/i18n";
import { currentSessionId, requireUserOrExplain } from "~/auth/auth.server";
import { screenTranslator } from "~/auth/screen-language.server";
import { askFirst } from "~/lib/screens/ask-first.server";
import { screenFailure, text } from "~/lib/screens/forms.server";
import { answerEnhanced } from "~/lib/screens/enhanced-answer.server";
import { clientAddress } from "~/lib/http/client-address.server";
import { readFormData } from "~/lib/http/bodies.server";
import { firstIssue } from "~/lib/screens/validation.server";
import {
  API_TOKEN_NAME_MAX,
  API_TOKENS_MAX,
  apiTokenNameSchema,
  createApiToken,
  listApiTokens,
  revokeApiToken,
  TOKEN_NAME_TOO_LONG,
  TOO_MANY_TOKENS,
} from "~/models/accounts/api-token.server";
import { revokeOtherSessions, revokeSession } from "~/models/accounts/sessions.server";
import { accountShares, revokeShareOf } from "~/services/sharing/share-screen.server";
import { accountSessions, accountUsage, changePassword } from "~/services/accounts/account.server";
import { accountText, PASSWORD_MAX, PASSWORD_MIN } from "~/common/account-rules";
import { msg } from "~/common/i18n/translate";
import { revokeQuestion, revokeShareQuestion, signOutQuestion } from "~/common/delete-question";
import accountStylesheet from "~/styles/account.css?url";
import libraryStylesheet from "~/styles/library.css?url";
import sharingStylesheet from "~/styles/sharing.css?url";
import type { Route } from "./+types/account";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: libraryStylesheet },
  { rel: "stylesheet", href: accountStylesheet },
  { rel: "stylesheet", href: sharingStylesheet },
];

const LOG_IN_AGAIN = msg("Please log in again.");
const PASSWORDS_DO_NOT_MATCH = msg("❌ Passwords do not match.");
/** With JavaScript, a post that never reached the server (clientAction): the page says it with t(). */
const SOMETHING_WENT_WRONG = msg("⚠️ Something went wrong. Please try again.");

type Intent = AccountIntent;

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await requireUserOrExplain(context, request, LOG_IN_AGAIN);
  const caller = { user, sessionId: currentSessionId(context) };
  const [sessions, tokens, usage, shares] = await Promise.all([
    accountSessions(caller),
    listApiTokens(user.id),
    accountUsage(user.id),
    accountShares(user.id, request),
  ]);
  // Without JavaScript, Revoke and Sign out ask on ?revoke-token={id} / ?revoke-session={id} / ?revoke-share={id} first.
  const params = new URL(request.url).searchParams;
  const token = tokens.find((row) => row.id === params.get("revoke-token"));
  const session = sessions.find((row) => row.id === params.get("revoke-session") && !row.current);
  const share = shares?.asked;
  // The question is asked in the screen's language by the page (Confirming below).
  const confirming = token
    ? { intent: "revoke-token" as const, id: token.id, name: token.name }
    : share
      ? { intent: "revoke-share" as const, id: share.id, name: share.title }
      : session
        ? { intent: "revoke-session" as const, id: session.id, name: session.device }
        : null;
  return {
    email: user.email,
    sessions,
    tokens,
    usage,
    shares,
    confirming,
    limits: {
      passwordMin: PASSWORD_MIN,
      passwordMax: PASSWORD_MAX,
      tokenName: API_TOKEN_NAME_MAX,
      tokens: API_TOKENS_MAX,
    },
  };
}

const answer = (result: AccountAnswer, status = 200) => data(result, { status });

/**
 * Posts to /account, by `intent`: password, revoke-session, revoke-other-sessions, create-token,
 * revoke-token, revoke-share. A plain form's success redirects back with a toast; a fetcher's (`enhanced`) is
 * answered with data and the toast; a refusal is answered with the reason beside its field (400). A
 * new token is answered with the page itself, either way: it is shown this once.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const user = await requireUserOrExplain(context, request, LOG_IN_AGAIN);
  // Every text of the answer (toasts, field errors, messages) in the screen's language.
  const { t } = await screenTranslator(context, request);
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return answer({ intent: null, ok: false, message: "Invalid form" }, 400);
  }
  const intent = text(form.get("intent")) as Intent;
  const caller = { user, sessionId: currentSessionId(context) };
  const done = (message: string) =>
    answerEnhanced<AccountAnswer>(form, {
      data: { intent, ok: true, message },
      redirectTo: "/account",
      toast: { type: "success", message, withData: true },
    });
  const refused = (message: string, status: number) =>
    answerEnhanced<AccountAnswer>(form, {
      data: { intent, ok: false, message },
      init: { status },
      redirectTo: "/account",
      toast: { type: "error", message, withData: true },
    });

  if (intent === "password") {
    // An unchecked box sends nothing: "also revoke API tokens" and "also end my share links" are on only when sent.
    const values = {
      current_password: text(form.get("current_password")),
      new_password: text(form.get("new_password")),
      revoke_tokens: form.get("revoke_tokens") !== null,
      revoke_shares: form.get("revoke_shares") !== null,
    };
    if (values.new_password !== text(form.get("confirm_password"))) {
      return answer({ intent, ok: false, fieldErrors: { confirm_password: t(PASSWORDS_DO_NOT_MATCH) } }, 400);
    }
    try {
      const ended = await changePassword(caller, values, clientAddress(context));
      const said = [
        t("✅ Password changed. {{count}} other sessions were signed out.", { count: ended.sessionsEnded }),
      ];
      if (values.revoke_tokens) said.push(t("{{count}} API tokens were revoked.", { count: ended.tokensRevoked }));
      if (values.revoke_shares) said.push(t("{{count}} share links were ended.", { count: ended.sharesRevoked }));
      return done(said.join(" "));
    } catch (error) {
      const failure = screenFailure(error);
      if (failure.status === 400 && (failure.code === "current_password" || failure.code === "new_password")) {
        const detail = failure.detail === undefined ? undefined : accountText(t, failure.detail);
        return answer({ intent, ok: false, fieldErrors: { [failure.code]: detail } }, 400);
      }
      const reason = failure.detail === undefined ? t("Unexpected error.") : accountText(t, failure.detail);
      return answer(
        { intent, ok: false, message: t("❌ Password not changed: {{reason}}", { reason }) },
        failure.status,
      );
    }
  }
  if (intent === "revoke-session" || intent === "revoke-token" || intent === "revoke-share") {
    const ask = askFirst(form, "/account", intent, text(form.get("id")));
    if (ask) return ask;
  }
  if (intent === "revoke-session") {
    if (!(await revokeSession(user.id, text(form.get("id")))))
      return refused(t("That session has already ended."), 404);
    return done(t("🔒 Session signed out"));
  }
  if (intent === "revoke-other-sessions") {
    const ended = await revokeOtherSessions(user.id, caller.sessionId);
    return done(
      ended === 0
        ? t("No other session was signed in")
        : t("🔒 Signed out everywhere else ({{count}} sessions)", { count: ended }),
    );
  }
  if (intent === "create-token") {
    const name = apiTokenNameSchema.safeParse(text(form.get("name")));
    if (!name.success) {
      const detail = accountText(t, firstIssue(name.error), [TOKEN_NAME_TOO_LONG]);
      return answer({ intent, ok: false, fieldErrors: { name: detail } }, 400);
    }
    try {
      const created = await createApiToken(user.id, name.data);
      return answer({ intent, ok: true, created: { id: created.id, name: created.name, token: created.token } }, 201);
    } catch (error) {
      const failure = screenFailure(error);
      const detail = failure.detail === undefined ? undefined : accountText(t, failure.detail, [TOO_MANY_TOKENS]);
      return answer({ intent, ok: false, fieldErrors: { name: detail } }, failure.status);
    }
  }
  if (intent === "revoke-token") {
    if (!(await revokeApiToken(user.id, text(form.get("id")))))
      return refused(t("That token was already revoked."), 404);
    return done(t("🗑️ Token revoked"));
  }
  if (intent === "revoke-share") {
    if (!(await revokeShareOf(user.id, text(form.get("id")))))
      return refused(t("That link was already turned off."), 404);
    return done(t("🔗 Link revoked"));
  }
  return answer({ intent: null, ok: false, message: "Unknown action" }, 400);
}

/** With JavaScript: a post that never reaches the server says so. */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const intent = (await request.clone().formData()).get("intent");
  return withFailureFallback(serverAction, (): AccountAnswer => ({
    intent: intent as Intent,
    ok: false,
    message: SOMETHING_WENT_WRONG,
  }));
}

/** The account (decision 0047): password, sessions, personal API tokens and usage. Every form works without JavaScript. */
export default function Account({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  const { email, sessions, tokens, usage, shares, limits, confirming } = loaderData;
  return (
    <main className="page page-narrow account-page">
      <title>{t("Account · Creative AI Studio")}</title>
      <PageHeader title={t("Account")} icon="circle-user" />
      <p className="muted">{t("Signed in as {{email}}.", { email })}</p>
      <FlashMessage />
      {confirming ? (
        <ConfirmPanel
          question={
            confirming.intent === "revoke-token"
              ? revokeQuestion(confirming.name, t)
              : confirming.intent === "revoke-share"
                ? revokeShareQuestion(confirming.name, t)
                : signOutQuestion(confirming.name, t)
          }
          action="/account"
          fields={{ intent: confirming.intent, id: confirming.id }}
          cancelTo="/account"
          confirmLabel={confirming.intent === "revoke-session" ? t("Sign out") : t("Revoke")}
        />
      ) : null}
      <PasswordSection limits={limits} />
      <SessionsSection sessions={sessions} />
      <TokensSection tokens={tokens} nameMax={limits.tokenName} tokensMax={limits.tokens} />
      {shares ? (
        <SharedLinksSection
          shares={shares.links}
          next={shares.next}
          older={shares.older}
          sharingOff={shares.sharingOff}
        />
      ) : null}
      <UsageSection usage={usage} />
      <section className="card account-section" aria-labelledby="language-title">
        <h2 className="card-title" id="language-title">
          {t("Language")}
        </h2>
        <p className="muted">{t("The studio speaks to you in this language on every browser you sign in on.")}</p>
        <LanguageMenu />
      </section>
    </main>
  );
}
