import { useEffect, useRef, useState } from "react";
import { data, Link, Form, useActionData, useLoaderData } from "react-router";
import { playSound } from "~/browser/sounds";
import { currentUser } from "~/auth/auth.server";
import { fieldErrors } from "~/lib/screens/forms.server";
import { readFormData } from "~/lib/http/bodies.server";
import { clientAddress } from "~/lib/http/client-address.server";
import {
  feedbackSchema,
  feedbackThrottledMessage,
  lastFeedbackName,
  sendFeedback,
} from "~/models/operators/feedback.server";
import type { ValuedText } from "~/common/account-rules";
import { interpolate, msg, type Translator } from "~/common/i18n/translate";
import { useT } from "~/components/ui/i18n";
import type { Route } from "./+types/feedback";

const SUCCESS = msg("✅ Feedback sent successfully!");
const FAILURE = msg("⚠️ Something went wrong. Please try again.");

/** The form's refusals (models/operators/feedback.server.ts and the API's `detail`) as they come, in English. */
const KNOWN: readonly ValuedText[] = [
  [msg("Name is required"), {}],
  [msg("Email is required"), {}],
  [msg("Enter a valid email address"), {}],
  [msg("Message is required"), {}],
  [msg("Name must be at most {{max}} characters"), { max: 100 }],
  [msg("Email must be at most {{max}} characters"), { max: 254 }],
  [msg("Message must be at most {{max}} characters"), { max: 5000 }],
];

/** A refusal's English (the action's field errors, the API's 429 detail) in the screen's language. */
function feedbackText(t: Translator["t"], english: string): string {
  const throttled = /^Too many feedback messages from your address\. Try again in (\d+) minutes?\.$/.exec(english);
  if (throttled)
    return t("Too many feedback messages from your address. Try again in {{count}} minutes.", {
      count: Number(throttled[1]),
    });
  for (const [text, values] of KNOWN) if (interpolate(text, values) === english) return t(text, values);
  // Any other text (a detail the page does not know) is looked up as it is: shown as it came without a translation.
  return t(english);
}

type FieldErrors = Partial<Record<"name" | "email" | "message", string>>;

/** Without JavaScript the form posts here; with it, the page calls POST /api/feedback (docs/api.md#every-call). */
/** The action's Retry-After (429, 503) reaches the page's answer too, beside the parent routes' headers. */
export const headers: Route.HeadersFunction = ({ actionHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

/**
 * A signed-in person's name and email start filled in, and stay editable: the email of the
 * account, the name they last signed feedback with (else their email's local part).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const user = currentUser(context);
  if (!user) return { name: "", email: "" };
  return { name: (await lastFeedbackName(user.id)) ?? user.email.split("@")[0], email: user.email };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const parsed = feedbackSchema.safeParse({
    name: form.get("name"),
    email: form.get("email"),
    message: form.get("message"),
  });
  if (!parsed.success) {
    return data(
      { ok: false as const, fieldErrors: fieldErrors(parsed.error, ["name", "email", "message"]) as FieldErrors },
      { status: 400 },
    );
  }
  const sent = await sendFeedback(parsed.data, currentUser(context)?.id ?? null, clientAddress(context));
  if (!sent.ok) {
    const reason = feedbackThrottledMessage(sent.retryAfterSeconds);
    return data(
      { ok: false as const, fieldErrors: {} as FieldErrors, reason },
      { status: 429, headers: { "Retry-After": String(sent.retryAfterSeconds) } },
    );
  }
  return { ok: true as const, fieldErrors: {} as FieldErrors };
}

/** `reason`: why it failed, when the server said (e.g. too many messages from this address), shown after the text in docs/screens.md#error-messages. */
type Outcome = { ok: boolean; fieldErrors: FieldErrors; reason?: string };

/** The API's `{"detail"}` of a refusal, when it sent one a person may read (429); null otherwise. */
async function refusalDetail(response: Response): Promise<string | null> {
  if (response.status !== 429) return null;
  try {
    const body: unknown = await response.json();
    return body && typeof body === "object" && "detail" in body && typeof body.detail === "string" ? body.detail : null;
  } catch {
    return null;
  }
}

export default function Feedback() {
  const { t } = useT();
  const actionData = useActionData<typeof action>();
  const known = useLoaderData<typeof loader>();
  const [clientOutcome, setClientOutcome] = useState<Outcome | null>(null);
  const [sending, setSending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const outcome: Outcome | null = clientOutcome ?? actionData ?? null;

  useEffect(() => {
    // A plain-form result also gets its sound once the page is interactive.
    if (actionData) playSound(actionData.ok ? "success" : "fail");
  }, [actionData]);

  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setSending(true);
    try {
      const response = await fetch("/api/feedback", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(Object.fromEntries(form)),
      });
      if (response.status !== 200) {
        setClientOutcome({ ok: false, fieldErrors: {}, reason: (await refusalDetail(response)) ?? undefined });
        playSound("fail");
        return;
      }
      setClientOutcome({ ok: true, fieldErrors: {} });
      formRef.current?.reset();
      playSound("success");
    } catch {
      setClientOutcome({ ok: false, fieldErrors: {} });
      playSound("fail");
    } finally {
      setSending(false);
    }
  };

  const errors = outcome?.fieldErrors ?? {};
  const said = (english: string) => feedbackText(t, english);
  return (
    <main className="page page-narrow">
      <title>{t("Feedback · Creative AI Studio")}</title>
      <h1>{t("Feedback")}</h1>
      <p className="muted">{t("Tell us what works, what doesn't, and what you'd love to see.")}</p>
      <Form method="post" className="card form" aria-label={t("Feedback")} onSubmit={submit} ref={formRef}>
        <label>
          {t("Name")}
          <input
            name="name"
            required
            maxLength={100}
            autoComplete="name"
            defaultValue={known.name}
            aria-invalid={!!errors.name}
          />
          {errors.name ? <span className="field-error">{said(errors.name)}</span> : null}
        </label>
        <label>
          {t("Email")}
          <input
            name="email"
            type="email"
            required
            maxLength={254}
            autoComplete="email"
            defaultValue={known.email}
            aria-invalid={!!errors.email}
          />
          {errors.email ? <span className="field-error">{said(errors.email)}</span> : null}
        </label>
        <label>
          {t("Message")}
          <textarea name="message" required maxLength={5000} rows={6} aria-invalid={!!errors.message} />
          {errors.message ? <span className="field-error">{said(errors.message)}</span> : null}
        </label>
        {outcome ? (
          <p
            className={`message ${outcome.ok ? "message-success" : "message-error"}`}
            role={outcome.ok ? "status" : "alert"}
          >
            {outcome.ok ? t(SUCCESS) : outcome.reason ? `${t(FAILURE)} ${said(outcome.reason)}` : t(FAILURE)}
          </p>
        ) : null}
        <button type="submit" className="button button-primary" disabled={sending}>
          {sending ? t("Sending...") : t("Submit")}
        </button>
      </Form>
      <p>
        <Link to="/">{t("← Home")}</Link>
      </p>
    </main>
  );
}
