import { FAILURE_TEXT, ProviderError, type Capability, type ProviderFailure } from "~/ai/errors.server";
import { DomainError } from "~/lib/domain-error";
import {
  noteAiProviderOutcome,
  providerKindOf,
  recordAiRequest,
  type AiOutcome,
} from "~/lib/observe/ai-observations.server";
import { withSpan } from "~/lib/observe/trace.server";

/**
 * Where a provider failure becomes what the doors see: a DomainError with the text in docs/screens.md#error-messages for the
 * capability. The provider's own account (failure, log detail, never its body or our keys) goes to
 * the server log here, once.
 */
const STATUS_OF_FAILURE: Record<ProviderFailure, number> = {
  // A bad gateway: the provider failed, refused or answered something unusable.
  unavailable: 502,
  rejected: 502,
  bad_response: 502,
  timeout: 504,
  not_configured: 503,
};

/** The DomainError code of a provider failure, for a door that must tell it apart from other refusals. */
export const PROVIDER_FAILED = "provider_failed";

export function providerFailure(error: ProviderError, capability: Capability): DomainError {
  console.error(`[ai] ${error.message}`);
  // "Not configured" says what to set (no secret in it); every other failure says only the text in docs/screens.md#error-messages.
  const detail =
    error.failure === "not_configured" ? error.logDetail || FAILURE_TEXT[capability] : FAILURE_TEXT[capability];
  return new DomainError(STATUS_OF_FAILURE[error.failure], detail, { code: PROVIDER_FAILED });
}

/** How a provider call ended, for the metrics and the span: a ProviderError's failure, a refusal, the caller gone. */
function outcomeOf(error: unknown, signal?: AbortSignal): AiOutcome {
  if (error instanceof ProviderError) return error.failure;
  if (error instanceof DomainError) return "rejected";
  // Stopped from our side (the person left, a video job's claim lost or its time up): nothing said of the provider.
  if (signal?.aborted) return "cancelled";
  return (error as Error | null)?.name === "AbortError" ? "cancelled" : "error";
}

/** A ProviderError leaves as the DomainError above, anything else as it was. */
function translated(error: unknown, capability: Capability): unknown {
  return error instanceof ProviderError ? providerFailure(error, capability) : error;
}

/**
 * One AI request to the provider `providerId` names (its kind is what is told, never its model): an
 * `ai {capability}` span and the metrics' hooks (app/lib/observe/ai-observations.server.ts), its
 * duration and outcome. What `work` throws leaves unchanged (the video runner decides on a
 * ProviderError itself); `signal`, when it is aborted, makes a failure a cancellation.
 */
export async function observedProviderCall<T>(
  capability: Capability,
  providerId: string,
  work: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const provider = providerKindOf(providerId);
  const started = performance.now();
  const attributes = { "studio.ai.capability": capability, "studio.ai.provider": provider };
  return withSpan(`ai ${capability}`, attributes, async (span) => {
    let outcome: AiOutcome = "ok";
    try {
      return await work();
    } catch (error) {
      outcome = outcomeOf(error, signal);
      span.fail(outcome);
      throw error;
    } finally {
      span.set({ "studio.ai.outcome": outcome });
      recordAiRequest(capability, provider, outcome, (performance.now() - started) / 1000);
      noteAiProviderOutcome(capability, provider, outcome);
    }
  });
}

/**
 * Runs `work`; a ProviderError it throws leaves as the DomainError above, anything else as it was.
 * With `providerId` (the provider's id) the call is one AI request (observedProviderCall). Without
 * it (the later pieces of a stream whose start was counted), a provider failure still tells the
 * provider's state, but no request is counted again.
 */
export async function withProviderFailures<T>(
  capability: Capability,
  work: () => Promise<T>,
  providerId?: string,
): Promise<T> {
  try {
    return providerId === undefined ? await work() : await observedProviderCall(capability, providerId, work);
  } catch (error) {
    if (providerId === undefined && error instanceof ProviderError)
      noteAiProviderOutcome(capability, providerKindOf(error.provider), error.failure);
    throw translated(error, capability);
  }
}
