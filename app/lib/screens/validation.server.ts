import type { z } from "zod";
import { DomainError } from "~/lib/domain-error";

/** The first problem zod found, as one readable sentence. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid input";
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
