import { z } from "zod";
import { outageOf } from "~/lib/outage.server";
import { DomainError } from "~/lib/domain-error";

/**
 * Reading screen forms (the screens' actions): one text reader, one field-error mapper and one answer for
 * a refusal. Whom an action answers with data, and how, is ./enhanced-answer.server.ts.
 */

/** A form field as text: a missing field or a file reads as "". */
export const text = (value: FormDataEntryValue | null): string => (typeof value === "string" ? value : "");

/** A schema's issues as field errors, the first message per field (zod's flattenError). */
export function fieldErrors<F extends string>(error: z.ZodError, fields: readonly F[]): Partial<Record<F, string>> {
  const flat = z.flattenError(error).fieldErrors as Record<string, string[] | undefined>;
  const errors: Partial<Record<F, string>> = {};
  for (const field of fields) {
    const first = flat[field]?.[0];
    if (first) errors[field] = first;
  }
  return errors;
}

/** What a screen says about a refusal: its docs/screens.md#error-messages message, the server's reason (if any) and the status. */
export interface ScreenFailure {
  status: number;
  /** The DomainError's code, for the few screens whose the text in docs/screens.md#error-messages depends on it. */
  code?: string;
  detail?: string;
}

/**
 * Turns what a model, a service or a body reader threw into the screen's answer: a DomainError keeps
 * its status and detail; a thrown Response (a body that was too large, too slow or not a form) keeps
 * its status. Anything else is a bug and is rethrown (the error boundary shows it, the log keeps it).
 */
export function screenFailure(error: unknown): ScreenFailure {
  // The database or the store out of reach: the screen says so (503), rather than failing as a bug.
  error = outageOf(error) ?? error;
  if (error instanceof DomainError) return { status: error.status, code: error.code, detail: error.detail };
  if (error instanceof Response) return { status: error.status };
  // The models are moving to DomainError; until every one has, an error with a numeric status is read the same way.
  if (error instanceof Error && typeof (error as { status?: unknown }).status === "number") {
    return { status: (error as unknown as { status: number }).status, detail: error.message };
  }
  throw error;
}
