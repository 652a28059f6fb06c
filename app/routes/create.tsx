import { useState } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { withFailureFallback } from "~/browser/network-safe";
import { PageHeader } from "~/components/shell/page-header";
import { describedBy, TitleCounter, titleCounterId, titleCounterText } from "~/components/ui/title-counter";
import { justChanged } from "~/lib/screens/just-changed.server";
import { requireUser } from "~/auth/auth.server";
import { redirectWithSuccess } from "~/lib/screens/toast.server";
import { DomainError } from "~/lib/domain-error";
import { fieldErrors, text } from "~/lib/screens/forms.server";
import { readFormData } from "~/lib/http/bodies.server";
import { BODY_MAX, contentInputSchema, TITLE_MAX } from "~/models/content/content-input.server";
import { createContent } from "~/models/content/content.server";
import editingStylesheet from "~/styles/editing.css?url";
import { screenTranslator } from "~/auth/screen-language.server";
import { msg } from "~/common/i18n/translate";
import { useT } from "~/components/ui/i18n";
import type { Route } from "./+types/create";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: editingStylesheet }];

/** docs/screens.md#error-messages (the page says it with t(): the actions answer the English key). */
const CREATE_FAILED = msg("⚠️ Error creating content. Please try again.");

type FieldErrors = Partial<Record<"title" | "body", string>>;

export function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, request);
  return { limits: { title: TITLE_MAX, body: BODY_MAX } };
}

/** A plain form post (with or without JavaScript): valid -> the dashboard with a toast; invalid -> 400 with field errors. */
export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, request);
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return data(
      { error: CREATE_FAILED, fieldErrors: {} as FieldErrors, values: { title: "", body: "" } },
      { status: 400 },
    );
  }
  const values = { title: text(form.get("title")), body: text(form.get("body")) };
  const parsed = contentInputSchema.safeParse(values);
  if (!parsed.success) {
    return data(
      { error: CREATE_FAILED, fieldErrors: fieldErrors(parsed.error, ["title", "body"]) as FieldErrors, values },
      { status: 400 },
    );
  }
  let created;
  try {
    created = await createContent(user.id, parsed.data);
  } catch (error) {
    // Past the storage quota (413): the text in docs/screens.md#error-messages and the reason; nothing was saved.
    if (error instanceof DomainError && error.status === 413) {
      const { t } = await screenTranslator(context, request);
      return data(
        { error: `${t(CREATE_FAILED)} ${t(error.detail)}`, fieldErrors: {} as FieldErrors, values },
        { status: 413 },
      );
    }
    console.error("[content] create failed", error);
    return data({ error: CREATE_FAILED, fieldErrors: {} as FieldErrors, values }, { status: 500 });
  }
  // The dashboard brings the new piece into view, highlighted (docs/screens.md#after-create-and-a-pin); the address stays /dashboard.
  const { t } = await screenTranslator(context, request);
  return redirectWithSuccess("/dashboard", t("Content created"), {
    headers: { "Set-Cookie": await justChanged.set({ id: created.id, part: "title" }) },
  });
}

/** With JavaScript: a post that never reaches the server keeps what was typed and says the text in docs/screens.md#error-messages. */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const form = await request.clone().formData();
  return withFailureFallback(serverAction, () => ({
    error: CREATE_FAILED,
    fieldErrors: {} as FieldErrors,
    values: { title: String(form.get("title") ?? ""), body: String(form.get("body") ?? "") },
  }));
}

export default function Create({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST" && navigation.formAction === "/create";
  const errors = actionData?.fieldErrors ?? {};
  // The counter starts from what the server gave back (a refused post), then follows the typing.
  const [titleLength, setTitleLength] = useState(actionData?.values.title.length ?? 0);
  const counted = titleCounterText(titleLength, loaderData.limits.title) !== null;
  return (
    <main className="page page-narrow create-page">
      <title>{t("Create · Creative AI Studio")}</title>
      <PageHeader title={t("Create Content")} icon="pen-line" />
      <Form method="post" className="card form" aria-label={t("Create content")}>
        <label>
          {t("Title")}
          <input
            name="title"
            required
            maxLength={loaderData.limits.title}
            defaultValue={actionData?.values.title}
            onChange={(event) => setTitleLength(event.target.value.length)}
            aria-invalid={!!errors.title}
            aria-describedby={describedBy(errors.title && "title-error", counted && titleCounterId("create-title"))}
            // The page's one job starts in this field.
            // eslint-disable-next-line jsx-a11y/no-autofocus
            autoFocus
          />
          <TitleCounter field="create-title" length={titleLength} max={loaderData.limits.title} />
          {errors.title ? (
            <span className="field-error" id="title-error">
              {t(errors.title)}
            </span>
          ) : null}
        </label>
        <label>
          {t("Body (optional)")}
          <textarea
            name="body"
            rows={10}
            maxLength={loaderData.limits.body}
            defaultValue={actionData?.values.body}
            aria-invalid={!!errors.body}
            aria-describedby={errors.body ? "body-error" : undefined}
          />
          {errors.body ? (
            <span className="field-error" id="body-error">
              {t(errors.body)}
            </span>
          ) : null}
        </label>
        {actionData?.error ? (
          <p className="message message-error" role="alert">
            {t(actionData.error)}
          </p>
        ) : null}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t("Creating...") : t("Create")}
        </button>
      </Form>
    </main>
  );
}

/** A failed submission that never reached the action (network) still gets the message in docs/screens.md#error-messages. */
export function ErrorBoundary() {
  const { t } = useT();
  return (
    <main className="page page-narrow create-page">
      <title>{t("Create · Creative AI Studio")}</title>
      <h1>{t("Create Content")}</h1>
      <p className="message message-error" role="alert">
        {t(CREATE_FAILED)}
      </p>
      <p>
        <a className="button" href="/create">
          {t("Try again")}
        </a>{" "}
        <Link className="button button-ghost" to="/dashboard">
          {t("Back to Dashboard")}
        </Link>
      </p>
    </main>
  );
}
