import { FAILURE_TEXT, ProviderError, type Capability, type ProviderFailure } from "~/ai/errors.server";
import { DomainError } from "~/lib/domain-error";

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

/** Runs `work`; a ProviderError it throws leaves as the DomainError above, anything else as it was. */
export async function withProviderFailures<T>(capability: Capability, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (error instanceof ProviderError) throw providerFailure(error, capability);
    throw error;
  }
}
