import { useEffect, useState } from "react";
import { data } from "react-router";
import { aiFailureText, streamAssistant } from "~/browser/ai-client";
import { speakableText } from "~/shared/speech-text";
import { AiPageHeader, OfflineBadge } from "~/components/ai-page-header";
import { AssistantQuestion, useVoices } from "~/components/assistant-question";
import { AssistantConversation, type SpokenAudio } from "~/components/assistant-conversation";
import { useSpokenReplies } from "~/components/use-spoken-replies";
import { useHydrated } from "~/components/use-hydrated";
import { MESSAGE_MAX } from "~/ai/chat.server";
import { assistantMessageSchema } from "~/ai/inputs.server";
import { OFFLINE_ASSISTANT_ID } from "~/shared/assistant-labels";
import { askAssistant as askOnServer, assistantIsOffline } from "~/services/assistant.server";
import { keepSpokenReply, speakUnkept, voicesForScreen } from "~/services/generation.server";
import { transientSpeechUrl } from "~/models/transient-speech.server";
import { screenAiFailure } from "~/services/ai-limits.server";
import { requireUser } from "~/auth/auth.server";
import { DomainError } from "~/lib/domain-error";
import { text } from "~/lib/forms.server";
import { readFormData } from "~/lib/http/bodies.server";
import { actionRetryAfter } from "~/lib/http/responder.server";
import type { Route } from "./+types/assistant";

export const meta: Route.MetaFunction = () => [{ title: "AI Assistant · Creative AI Studio" }];

/** A refusal's Retry-After (the person's AI limits) reaches the page's answer too. */
export const headers: Route.HeadersFunction = actionRetryAfter;

/** docs/screens.md#screens-and-routes and #error-messages texts of the assistant. */
const SOMETHING_WENT_WRONG = "Something went wrong.";
const OFFLINE_LABEL = "Offline assistant";
const OFFLINE_EXPLAINED =
  "No AI model is configured: the offline assistant answers from your own content and explains the studio's tools.";

/** The voices come with the page, so the choice works without JavaScript (the fallback voice if listing fails). */
export async function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, request);
  return { offline: assistantIsOffline(), messageMax: MESSAGE_MAX, voices: await voicesForScreen(request.signal) };
}

type AskResult =
  | {
      ok: true;
      question: string;
      voiceId: string;
      reply: string;
      provider: string;
      speech: SpokenAudio | null;
      speechError: string | null;
    }
  | { ok: false; question: string; voiceId?: string; error: string };

/**
 * Without JavaScript: a plain form post. Asking renders the reply in the page and, with Auto-Speak on,
 * speaks it without keeping it (a player whose audio lives minutes; docs/decisions/0042). Its "Save to
 * library" posts here too (intent keep_speech) with what the page showed, which comes back with the
 * reply and says it is in the library. With JavaScript the screen calls the API instead (docs/api.md#every-call).
 */
export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, request);
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return data<AskResult>({ ok: false, question: "", error: SOMETHING_WENT_WRONG }, { status: 400 });
  }
  const question = text(form.get("message"));
  const voiceId = text(form.get("voice_id")).trim();
  if (form.get("intent") === "keep_speech") return keepSpeech(user.id, form, question, voiceId);
  // docs/screens.md#validation-rules: an empty or whitespace question is ignored.
  if (question.trim() === "") return null;
  const parsed = assistantMessageSchema.safeParse({ message: question });
  if (!parsed.success)
    return data<AskResult>({ ok: false, question, voiceId, error: parsed.error.issues[0].message }, { status: 422 });
  let answer;
  try {
    answer = await askOnServer(user.id, parsed.data.message, request.signal);
  } catch (error) {
    // A provider failure reaches the screen as the service's DomainError: the text in docs/screens.md#error-messages with its status;
    // over the person's AI limits, the reason too, which says when to try again (429, Retry-After).
    if (!(error instanceof DomainError)) throw error;
    const failure = screenAiFailure(SOMETHING_WENT_WRONG, error);
    return data<AskResult>(
      { ok: false, question, voiceId, error: failure.message },
      { status: failure.status, headers: failure.headers },
    );
  }
  let speech: SpokenAudio | null = null;
  let speechError: string | null = null;
  if (form.get("auto_speak") === "on") {
    try {
      const spoken = await speakUnkept(user.id, speakableText(answer.reply), voiceId || undefined, request.signal);
      speech = { url: spoken.url, speechId: spoken.speech_id };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      speechError = screenAiFailure(SOMETHING_WENT_WRONG, error).message;
    }
  }
  return data<AskResult>({
    ok: true,
    question,
    voiceId,
    reply: answer.reply,
    provider: answer.provider,
    speech,
    speechError,
  });
}

/** "Save to library" without JavaScript: keeps the spoken reply, and the page shows it again as it was, saved or why not. */
async function keepSpeech(userId: string, form: FormData, question: string, voiceId: string) {
  const speechId = text(form.get("speech_id")).trim();
  const shown = {
    ok: true as const,
    question,
    voiceId,
    reply: text(form.get("reply")),
    provider: text(form.get("provider")),
    speechError: null,
  };
  try {
    const kept = await keepSpokenReply(userId, speechId);
    return data<AskResult>({ ...shown, speech: { url: kept.url, speechId, saved: kept.filename } });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // The reason (expired, past the quota) as the other save buttons show it.
    return data<AskResult>(
      { ...shown, speech: { url: transientSpeechUrl(speechId), speechId, saveError: error.detail } },
      { status: error.status },
    );
  }
}

/** Names this visit's exchanges (crypto.randomUUID needs a secure context, which plain HTTP on a LAN is not). */
let askedCount = 0;

export default function Assistant({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const voices = useVoices(loaderData.voices);
  // The voice asked with last (after a plain form post), else the server's first voice.
  const [voiceId, setVoiceId] = useState(actionData?.voiceId ?? loaderData.voices[0]?.voice_id ?? "");
  const [question, setQuestion] = useState(actionData?.question ?? "");
  const [autoSpeak, setAutoSpeak] = useState(true);
  const [asking, setAsking] = useState(false);
  // The exchanges of this visit, the newest last (growing while it streams), each with its speech once spoken.
  const { exchanges, show, drop, speak, speaking, speechError, player } = useSpokenReplies(
    actionData?.ok
      ? [
          {
            id: "posted",
            question: actionData.question,
            reply: actionData.reply,
            provider: actionData.provider,
            speech: actionData.speech,
          },
        ]
      : [],
    actionData?.ok ? actionData.speechError : null,
    SOMETHING_WENT_WRONG,
  );
  const answer = exchanges.at(-1);
  const [error, setError] = useState<string | null>(actionData && !actionData.ok ? actionData.error : null);

  // The first voice is chosen once the list is in.
  useEffect(() => {
    if (
      voices.state === "ready" &&
      voices.voices.length > 0 &&
      !voices.voices.some((voice) => voice.voice_id === voiceId)
    ) {
      setVoiceId(voices.voices[0].voice_id);
    }
  }, [voices, voiceId]);

  const ask = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const message = question.trim();
    // docs/screens.md#validation-rules: an empty or whitespace question is ignored.
    if (!message || asking) return;
    setAsking(true);
    setError(null);
    const id = `asked-${++askedCount}`;
    try {
      // The reply grows in the box as the provider streams it; Auto-Speak speaks it once it is whole.
      const result = await streamAssistant(message, (replySoFar, provider) =>
        show({ id, question: message, reply: replySoFar, provider }),
      );
      const whole = { id, question: message, ...result };
      show(whole);
      if (autoSpeak) void speak(whole, voiceId);
    } catch (error) {
      drop(id);
      setError(aiFailureText(SOMETHING_WENT_WRONG, error));
    } finally {
      setAsking(false);
    }
  };

  const answeredBy = (provider: string) =>
    provider === OFFLINE_ASSISTANT_ID ? `Answered by the ${OFFLINE_LABEL.toLowerCase()}` : `Answered by ${provider}`;

  return (
    <main className="page ai-page assistant-page">
      <AiPageHeader title="AI Assistant" icon="bot">
        {loaderData.offline ? <OfflineBadge label={OFFLINE_LABEL} title={OFFLINE_EXPLAINED} /> : null}
      </AiPageHeader>
      {loaderData.offline ? <p className="muted ai-note">{OFFLINE_EXPLAINED}</p> : null}

      {/* The question beside its reply on wide screens; one column on phones. */}
      <div className="workspace">
        <AssistantQuestion
          hydrated={hydrated}
          messageMax={loaderData.messageMax}
          voices={voices}
          question={question}
          onQuestion={setQuestion}
          voiceId={voiceId}
          onVoice={setVoiceId}
          autoSpeak={autoSpeak}
          onAutoSpeak={setAutoSpeak}
          asking={asking}
          speaking={speaking}
          onAsk={hydrated ? ask : undefined}
          onSpeak={answer ? () => void speak(answer, voiceId) : null}
        />

        <section className="card ai-reply" aria-label="Reply" aria-live="polite" aria-busy={asking}>
          {exchanges.length > 0 ? (
            <AssistantConversation
              exchanges={exchanges}
              answeredBy={answeredBy}
              speech={{ hydrated, voiceId, player }}
            />
          ) : null}
          {error ? (
            <p className="message message-error" role="alert">
              {error}
            </p>
          ) : exchanges.length === 0 ? (
            <p className="muted">The reply appears here.</p>
          ) : null}
          {speechError ? (
            <p className="message message-error" role="alert">
              {speechError}
            </p>
          ) : null}
        </section>
      </div>
    </main>
  );
}
