import { aiLimitDetailText, aiLimitText, type AiLimitRefusal } from "~/common/ai-limit-texts";
import { DEFAULT_LANGUAGE } from "~/common/i18n/languages";
import type { Translator } from "~/common/i18n/translate";
import { DomainError } from "~/lib/domain-error";
import { translatorFor } from "~/lib/i18n/catalogues.server";
import {
  AI_SLOT_HEARTBEAT_MS,
  beginAiRequest,
  finishAiRequest,
  forgetAiRequest,
  heartbeatAiRequests,
  type AiRequestKind,
} from "~/models/ai-usage.server";

/**
 * Where every AI call passes the person's limits (app/models/ai-usage.server.ts): the services that
 * call a provider (assistant, generation, video jobs) take a slot first and give it back when the call
 * ends, so both doors (the API and the screens' forms) are limited alike, by one rule. Over a limit the
 * call is a 429 DomainError with Retry-After and a detail that says when to try again (code AI_LIMITED,
 * for the screens to show it).
 */
export const AI_LIMITED = "ai_limited";

/** A slot is never beaten longer than this: a holder that never gave it back (a bug) frees it by going stale. */
const SLOT_MAX_HOLD_MS = 15 * 60_000;

/** The API's words (English, the /api contract): which limit, and when to try again. */
export function aiLimitedMessage(refusal: AiLimitRefusal): string {
  return aiLimitText(translatorFor(DEFAULT_LANGUAGE).t, refusal);
}

/**
 * The 429 of the AI limits. Its `refusal` (which limit, its size, the wait) lets a screen say the
 * reason in its own language (screenAiFailure); it is not part of the API's answer, which is
 * `{"detail", "retry_after"}` (errorResponse sends `detail` and `data` only).
 */
export class AiLimitedError extends DomainError {
  readonly refusal: AiLimitRefusal;

  constructor({ reason, limit, retryAfterSeconds }: AiLimitRefusal) {
    super(429, aiLimitedMessage({ reason, limit, retryAfterSeconds }), {
      code: AI_LIMITED,
      headers: { "Retry-After": String(retryAfterSeconds) },
      data: { retry_after: retryAfterSeconds },
    });
    this.refusal = { reason, limit, retryAfterSeconds };
  }
}

export interface AiSlot {
  /** Gives the slot back (once; later calls do nothing). Never rejects: a slot that fails to free goes stale. */
  release(): Promise<void>;
  /**
   * Gives the slot back and un-counts the request, as if the limits had refused it: for work the service
   * itself refused before any provider was asked (the active-job limit of video jobs). Once, as `release`;
   * whichever of the two comes first decides. Never rejects: a row that fails to go still counts.
   */
  refund(): Promise<void>;
}

export interface AiSlotOptions {
  /** An error of the work that refunds the request instead of counting it (AiSlot.refund). */
  refundWhen?: (error: unknown) => boolean;
}

/** Takes one of the person's AI slots, or throws the 429 DomainError. */
export async function acquireAiSlot(userId: string, kind: AiRequestKind): Promise<AiSlot> {
  const start = await beginAiRequest(userId, kind);
  if (!start.allowed) {
    throw new AiLimitedError(start);
  }
  const started = Date.now();
  const beat = setInterval(() => {
    if (Date.now() - started > SLOT_MAX_HOLD_MS) {
      clearInterval(beat);
      return;
    }
    heartbeatAiRequests(userId, [start.id]).catch((error) => console.error("[ai-limits] heartbeat failed", error));
  }, AI_SLOT_HEARTBEAT_MS);
  beat.unref();
  let ended: Promise<void> | null = null;
  const end = (how: "finish" | "forget") => {
    ended ??= (async () => {
      clearInterval(beat);
      const write = how === "finish" ? finishAiRequest : forgetAiRequest;
      await write(userId, start.id).catch((error) => console.error("[ai-limits] could not free a slot", error));
    })();
    return ended;
  };
  return { release: () => end("finish"), refund: () => end("forget") };
}

/**
 * Runs `work` holding one of the person's AI slots (429 when over a limit); the slot is freed when it settles.
 * An error `refundWhen` matches un-counts the request (per minute and per day), as a refusal of the limits does.
 */
export async function withAiSlot<T>(
  userId: string,
  kind: AiRequestKind,
  work: () => Promise<T>,
  { refundWhen }: AiSlotOptions = {},
): Promise<T> {
  const slot = await acquireAiSlot(userId, kind);
  try {
    return await work();
  } catch (error) {
    if (refundWhen?.(error)) await slot.refund();
    throw error;
  } finally {
    await slot.release();
  }
}

/**
 * A screen's answer to an AI call that failed with `error`: the failure text in docs/screens.md#error-messages (already in the
 * screen's language), and when the person is over a limit, the reason that says when to try again, in the language of `t`,
 * with the 429 and its Retry-After header.
 */
export function screenAiFailure(
  failureText: string,
  error: DomainError,
  t: Translator["t"],
): { message: string; status: number; headers?: Record<string, string> } {
  if (error.code !== AI_LIMITED) return { message: failureText, status: error.status };
  // The refusal itself when it is at hand; else (a DomainError made again from it) read back from its English.
  const reason =
    error instanceof AiLimitedError
      ? aiLimitText(t, error.refusal)
      : (aiLimitDetailText(t, error.detail) ?? t(error.detail));
  return { message: `${failureText} ${reason}`, status: error.status, headers: error.options.headers };
}
