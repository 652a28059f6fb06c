import { data, redirect } from "react-router";
import { AiPageHeader, OfflineBadge } from "~/components/shell/ai-page-header";
import { AssistantScreen, SOMETHING_WENT_WRONG } from "~/components/assistant/assistant-screen-view";
import { MESSAGE_MAX } from "~/ai/chat/chat.server";
import { assistantMessageSchema } from "~/ai/inputs.server";
import {
  CONVERSATION_TITLE_MAX,
  TITLE_TOO_LONG,
  conversationRenameSchema,
  deleteConversation,
  parseConversationInput,
  renameConversation,
} from "~/models/assistant/assistant-conversation.server";
import { assistantIsOffline } from "~/services/assistant/assistant.server";
import { askOnScreen, assistantView, keepSpeechOnScreen } from "~/services/assistant/assistant-screen.server";
import type { AssistantActionData as ScreenActionData } from "~/common/assistant/assistant-exchanges";
import { voicesForScreen } from "~/services/media/generation.server";
import { requireUser } from "~/auth/auth.server";
import { screenLanguageOf, screenTranslator } from "~/auth/screen-language.server";
import { voicesInLanguageFirst } from "~/common/assistant/voice-options";
import { interpolate, msg, type Translator } from "~/common/i18n/translate";
import { useT } from "~/components/ui/i18n";
import { DomainError } from "~/lib/domain-error";
import { text } from "~/lib/screens/forms.server";
import { readFormData } from "~/lib/http/bodies.server";
import { actionRetryAfter } from "~/lib/http/responder.server";
import chatStylesheet from "~/styles/assistant-chat.css?url";
import type { Route } from "./+types/assistant";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: chatStylesheet }];

/** A refusal's Retry-After (the person's AI limits) reaches the page's answer too. */
export const headers: Route.HeadersFunction = actionRetryAfter;

/** docs/screens.md#screens-and-routes texts of the assistant. */
const OFFLINE_LABEL = msg("Offline assistant");
const OFFLINE_EXPLAINED = msg(
  "No AI model is configured: the offline assistant answers from your own content and explains the studio's tools.",
);

/**
 * The voices come with the page, so the choice works without JavaScript (the fallback voice if listing
 * fails), the screen language's first (the one chosen unless the person picks another); so do the
 * person's conversations and the open one (?c=<id>; ?delete=1 asks before deleting it).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const url = new URL(request.url);
  const [view, voices, language] = await Promise.all([
    assistantView(user.id, url.searchParams.get("c")),
    voicesForScreen(request.signal),
    screenLanguageOf(context, request),
  ]);
  return {
    offline: assistantIsOffline(),
    messageMax: MESSAGE_MAX,
    voices: voicesInLanguageFirst(voices, language),
    ...view,
    confirmDelete: url.searchParams.get("delete") === "1" && view.conversation !== null,
  };
}

const withConversation = (id: string) => `/assistant?c=${encodeURIComponent(id)}`;

/** A rename's refusal in the screen's language (the too-long title's number is put back in its text). */
function renameErrorText({ t }: Translator, detail: string): string {
  const max = CONVERSATION_TITLE_MAX;
  return detail === interpolate(TITLE_TOO_LONG, { max }) ? t(TITLE_TOO_LONG, { max }) : t(detail);
}

/**
 * Without JavaScript, plain form posts (docs/screens.md#assistant-conversations): asking (the reply
 * renders in the page, spoken without being kept when Auto-Speak is on: docs/decisions/0042), "Save
 * to library" (intent keep_speech), renaming and deleting a conversation. With JavaScript the screen
 * asks through the API (docs/api.md#assistant-conversations); renaming and deleting post here too.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const screen = await screenTranslator(context, request);
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    const refused = {
      ok: false as const,
      question: "",
      voiceId: "",
      error: screen.t(SOMETHING_WENT_WRONG),
      conversationId: null,
    };
    return data<ScreenActionData>(refused, { status: 400 });
  }
  const intent = form.get("intent");
  const conversationId = text(form.get("conversation_id")).trim() || null;
  const voiceId = text(form.get("voice_id")).trim();
  if (intent === "delete_conversation" && conversationId) {
    await deleteConversation(user.id, conversationId);
    return redirect("/assistant");
  }
  if (intent === "rename_conversation" && conversationId) {
    try {
      const { title } = parseConversationInput(conversationRenameSchema, { title: text(form.get("title")) });
      await renameConversation(user.id, conversationId, title);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return data<ScreenActionData>(
        { ok: false, intent: "rename", error: renameErrorText(screen, error.detail), conversationId },
        { status: error.status },
      );
    }
    return redirect(withConversation(conversationId));
  }
  let answer;
  if (intent === "keep_speech" && conversationId) {
    const speechId = text(form.get("speech_id")).trim();
    const exchangeId = text(form.get("exchange_id")).trim();
    answer = await keepSpeechOnScreen(user.id, { speechId, exchangeId, conversationId, voiceId });
  } else {
    const question = text(form.get("message"));
    // docs/screens.md#validation-rules: an empty or whitespace question is ignored.
    if (question.trim() === "") return null;
    const parsed = assistantMessageSchema.safeParse({ message: question });
    if (!parsed.success) {
      const error = screen.t(parsed.error.issues[0].message);
      const refused = { ok: false as const, question, voiceId, error, conversationId };
      return data<ScreenActionData>(refused, { status: 422 });
    }
    const ask = { question: parsed.data.message, voiceId, conversationId, autoSpeak: form.get("auto_speak") === "on" };
    answer = await askOnScreen(user.id, ask, SOMETHING_WENT_WRONG, request.signal, screen);
  }
  return data<ScreenActionData>(answer.result, { status: answer.status, headers: answer.headers });
}

export default function Assistant({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  return (
    <main className="page ai-page assistant-page">
      <title>{t("AI Assistant · Creative AI Studio")}</title>
      <AiPageHeader title={t("AI Assistant")} icon="bot">
        {loaderData.offline ? <OfflineBadge label={t(OFFLINE_LABEL)} title={t(OFFLINE_EXPLAINED)} /> : null}
      </AiPageHeader>
      {loaderData.offline ? <p className="muted ai-note">{t(OFFLINE_EXPLAINED)}</p> : null}
      <AssistantScreen loaderData={loaderData} actionData={actionData ?? null} />
    </main>
  );
}
