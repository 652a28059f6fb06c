import type { z } from "zod";
import { msg } from "~/common/i18n/translate";
import { DomainError } from "~/lib/domain-error";

/** What a refusal says when zod gave no issue (a catalogue text: a screen shows `t(detail)`). */
export const INVALID_INPUT = msg("Invalid input");

/** The first problem zod found, as one readable sentence (English: the API's detail; our schemas' sentences are catalogue texts). */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return INVALID_INPUT;
  const field = issue.path.join(".");
  // Our schemas carry full sentences; zod's own generic messages get the field name in front.
  return /^(Invalid|Expected|Too)/.test(issue.message) && field ? `${field}: ${issue.message}` : issue.message;
}

/** Validates input against a schema; invalid input is a 422 DomainError with the first problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new DomainError(422, firstIssue(result.error));
  return result.data;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
