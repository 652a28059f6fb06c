/**
 * A provider failure as the person may see it. Remote answers (their bodies, headers, our keys)
 * never reach the client or the log: only the capability, the provider's id, a reason and the HTTP
 * status the provider gave go to the log. Services turn a ProviderError into a DomainError with
 * the text in docs/screens.md#error-messages for the capability (app/services/provider-failure.server.ts); no door sees it.
 */
export type Capability = "chat" | "speech" | "image" | "sketch" | "video";

export type ProviderFailure =
  /** The provider did not answer within the timeout (after the retries). */
  | "timeout"
  /** Network failure, 429 or 5xx after the retries. */
  | "unavailable"
  /** The provider refused the request (4xx other than 429): a bad key, model or input. */
  | "rejected"
  /** The provider answered 2xx with something we could not use. */
  | "bad_response"
  /** No provider is configured for the capability. */
  | "not_configured";

/** the failure texts in docs/screens.md#error-messages, by the screen that shows the capability. */
export const FAILURE_TEXT: Record<Capability, string> = {
  chat: "Something went wrong.",
  speech: "Something went wrong.",
  image: "Image generation failed. Try again.",
  sketch: "AI generation failed. Please try again.",
  video: "❌ Error generating video.",
};

export class ProviderError extends Error {
  constructor(
    readonly capability: Capability,
    readonly provider: string,
    readonly failure: ProviderFailure,
    /** What happened, for the server log only (never provider bodies or keys). */
    readonly logDetail = "",
  ) {
    super(`${capability} provider ${provider}: ${failure}${logDetail ? ` (${logDetail})` : ""}`);
  }
}
