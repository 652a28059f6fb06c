/**
 * What AI provider calls tell the metrics (docs/decisions/0087): every call's outcome and duration,
 * and whether the capability's provider answers. The services call the two hooks below; they do
 * nothing until the metrics plug an observer in with setAiObserver (only when METRICS_PORT is set),
 * so the AI code needs no metrics library and costs nothing without one.
 */
export type AiOutcome =
  "ok" | "limited" | "timeout" | "unavailable" | "rejected" | "bad_response" | "not_configured" | "error" | "cancelled";

export interface AiObserver {
  /** One AI request ended: its capability, its provider's kind (providerKindOf), how, and how long it took. */
  recordAiRequest(capability: string, providerKind: string, outcome: AiOutcome, seconds: number): void;
  /** What a provider's call said about the provider (up after "ok", down after "unavailable" or "timeout"). */
  noteAiProviderOutcome(capability: string, providerKind: string, outcome: AiOutcome): void;
}

let observer: AiObserver | null = null;

/** Plugs the metrics in (null: out again). */
export function setAiObserver(next: AiObserver | null): void {
  observer = next;
}

export function recordAiRequest(capability: string, providerKind: string, outcome: AiOutcome, seconds: number): void {
  observer?.recordAiRequest(capability, providerKind, outcome, seconds);
}

export function noteAiProviderOutcome(capability: string, providerKind: string, outcome: AiOutcome): void {
  observer?.noteAiProviderOutcome(capability, providerKind, outcome);
}

/**
 * A provider id's kind, the part before the first colon (`openai-compatible:acme-chat-v7` is
 * `openai-compatible`): metrics and spans name kinds, never the models an operator configured.
 */
export function providerKindOf(providerId: string): string {
  const colon = providerId.indexOf(":");
  return colon === -1 ? providerId : providerId.slice(0, colon);
}
