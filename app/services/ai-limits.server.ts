import { DomainError } from "~/lib/domain-error";
import {
  AI_SLOT_HEARTBEAT_MS,
  beginAiRequest,
  finishAiRequest,
  heartbeatAiRequests,
  type AiRequestKind,
  type AiRequestStart,
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

function seconds(count: number) {
  return `${count} second${count === 1 ? "" : "s"}`;
}

/** The refusal's words: which limit, and when to try again. */
export function aiLimitedMessage(refusal: Extract<AiRequestStart, { allowed: false }>): string {
  const when = `Try again in ${seconds(refusal.retryAfterSeconds)}.`;
  if (refusal.reason === "per_day") {
    const hours = Math.ceil(refusal.retryAfterSeconds / 3600);
    return `Too many AI requests today: at most ${refusal.limit} a day. Try again in ${hours} hour${hours === 1 ? "" : "s"} (at midnight UTC).`;
  }
  return refusal.reason === "per_minute"
    ? `Too many AI requests: at most ${refusal.limit} a minute. ${when}`
    : `Too many AI requests at once: at most ${refusal.limit} at a time. ${when}`;
}

export interface AiSlot {
  /** Gives the slot back (once; later calls do nothing). Never rejects: a slot that fails to free goes stale. */
  release(): Promise<void>;
}

/** Takes one of the person's AI slots, or throws the 429 DomainError. */
export async function acquireAiSlot(userId: string, kind: AiRequestKind): Promise<AiSlot> {
  const start = await beginAiRequest(userId, kind);
  if (!start.allowed) {
    throw new DomainError(429, aiLimitedMessage(start), {
      code: AI_LIMITED,
      headers: { "Retry-After": String(start.retryAfterSeconds) },
      data: { retry_after: start.retryAfterSeconds },
    });
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
  let released: Promise<void> | null = null;
  return {
    release() {
      released ??= (async () => {
        clearInterval(beat);
        await finishAiRequest(userId, start.id).catch((error) =>
          console.error("[ai-limits] could not free a slot", error),
        );
      })();
      return released;
    },
  };
}

/** Runs `work` holding one of the person's AI slots (429 when over a limit); the slot is freed when it settles. */
export async function withAiSlot<T>(userId: string, kind: AiRequestKind, work: () => Promise<T>): Promise<T> {
  const slot = await acquireAiSlot(userId, kind);
  try {
    return await work();
  } finally {
    await slot.release();
  }
}

/**
 * A screen's answer to an AI call that failed with `error`: the failure text in docs/screens.md#error-messages, and when the person is
 * over a limit, the reason that says when to try again, with the 429 and its Retry-After header.
 */
export function screenAiFailure(
  failureText: string,
  error: DomainError,
): { message: string; status: number; headers?: Record<string, string> } {
  if (error.code !== AI_LIMITED) return { message: failureText, status: error.status };
  return { message: `${failureText} ${error.detail}`, status: error.status, headers: error.options.headers };
}
