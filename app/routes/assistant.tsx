import { data, redirect } from "react-router";
import { AiPageHeader, OfflineBadge } from "~/components/shell/ai-page-header";
import { AssistantScreen, SOMETHING_WENT_WRONG } from "~/components/assistant/assistant-screen-view";
import { MESSAGE_MAX } from "~/ai/chat/chat.server";
import { assistantMessageSchema } from "~/ai/inputs.server";
import {
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
import { DomainError } from "~/lib/domain-error";
import { text } from "~/lib/screens/forms.server";
import { readFormData } from "~/lib/http/bodies.server";
import { actionRetryAfter } from "~/lib/http/responder.server";
import chatStylesheet from "~/styles/assistant-chat.css?url";
import type { Route } from "./+types/assistant";

export const meta: Route.MetaFunction = () => [{ title: "AI Assistant · Creative AI Studio" }];

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: chatStylesheet }];

/** A refusal's Retry-After (the person's AI limits) reaches the page's answer too. */
export const headers: Route.HeadersFunction = actionRetryAfter;

/** docs/screens.md#screens-and-routes texts of the assistant. */
const OFFLINE_LABEL = "Offline assistant";
const OFFLINE_EXPLAINED =
  "No AI model is configured: the offline assistant answers from your own content and explains the studio's tools.";

/**
 * The voices come with the page, so the choice works without JavaScript (the fallback voice if listing
 * fails); so do the person's conversations and the open one (?c=<id>; ?delete=1 asks before deleting it).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const url = new URL(request.url);
  const [view, voices] = await Promise.all([
    assistantView(user.id, url.searchParams.get("c")),
    voicesForScreen(request.signal),
  ]);
  return {
    offline: assistantIsOffline(),
    messageMax: MESSAGE_MAX,
    voices,
    ...view,
    confirmDelete: url.searchParams.get("delete") === "1" && view.conversation !== null,
  };
}

const withConversation = (id: string) => `/assistant?c=${encodeURIComponent(id)}`;

/**
 * Without JavaScript, plain form posts (docs/screens.md#assistant-conversations): asking (the reply
 * renders in the page, spoken without being kept when Auto-Speak is on: docs/decisions/0042), "Save
 * to library" (intent keep_speech), renaming and deleting a conversation. With JavaScript the screen
 * asks through the API (docs/api.md#assistant-conversations); renaming and deleting post here too.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, request);
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    const refused = {
      ok: false as const,
      question: "",
      voiceId: "",
      error: SOMETHING_WENT_WRONG,
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
        { ok: false, intent: "rename", error: error.detail, conversationId },
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
      const refused = { ok: false as const, question, voiceId, error: parsed.error.issues[0].message, conversationId };
      return data<ScreenActionData>(refused, { status: 422 });
    }
    const ask = { question: parsed.data.message, voiceId, conversationId, autoSpeak: form.get("auto_speak") === "on" };
    answer = await askOnScreen(user.id, ask, SOMETHING_WENT_WRONG, request.signal);
  }
  return data<ScreenActionData>(answer.result, { status: answer.status, headers: answer.headers });
}

export default function Assistant({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <main className="page ai-page assistant-page">
      <AiPageHeader title="AI Assistant" icon="bot">
        {loaderData.offline ? <OfflineBadge label={OFFLINE_LABEL} title={OFFLINE_EXPLAINED} /> : null}
      </AiPageHeader>
      {loaderData.offline ? <p className="muted ai-note">{OFFLINE_EXPLAINED}</p> : null}
      <AssistantScreen loaderData={loaderData} actionData={actionData ?? null} offlineLabel={OFFLINE_LABEL} />
    </main>
  );
}
