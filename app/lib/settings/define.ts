import { z } from "zod";

/**
 * How one environment variable is declared: its parser (a zod schema from the raw text), its default and
 * a one-line description. The schema (app/lib/settings/env.server.ts), docs/configuration.md and .env.example are
 * all made from these declarations (`npm run docs:config`), so a name, default or meaning is written once.
 */
export interface Variable<T = unknown> {
  /** Parses the raw text (unset or empty gives the default). */
  schema: z.ZodType<T, string | undefined>;
  /** The default in words for the docs when it is not a plain value (e.g. "`$DATA_DIR/studio.sqlite`"). */
  shownDefault: string | null;
  /** The value given when unset, as .env.example writes it; null: no value (the line stays commented). */
  defaultText: string | null;
  description: string;
  /** A value worth showing in .env.example when there is no default (e.g. an URL of the usual shape). */
  example?: string;
}

export interface Declaration<T> {
  default: T;
  description: string;
  /** The docs' words for the default when the value alone would mislead (derived, or set elsewhere). */
  shown?: string;
  example?: string;
}

/** The text a default stands for in the docs and .env.example (null: none). */
function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.length ? value.join(",") : null;
  return String(value);
}

/**
 * A variable parsed by `parse` (undefined = bad value: "NAME must be <expected>, got "..."");
 * unset or empty gives the declared default. A secret's bad value is never repeated in the message.
 */
export function setting<T>(
  expected: string,
  parse: (raw: string) => T | undefined,
  declared: Declaration<T>,
  { secret = false } = {},
): Variable<T> {
  const schema = z
    .string()
    .optional()
    .transform((value, context): T => {
      const raw = value?.trim();
      if (raw === undefined || raw === "") return declared.default;
      const parsed = parse(raw);
      if (parsed === undefined) {
        context.addIssue({
          code: "custom",
          message: secret ? `must be ${expected}` : `must be ${expected}, got "${value}"`,
        });
        return z.NEVER;
      }
      return parsed;
    });
  const defaultText = textOf(declared.default);
  return {
    schema,
    defaultText,
    shownDefault: declared.shown ?? (defaultText === null ? null : `\`${defaultText}\``),
    description: declared.description,
    example: declared.example,
  };
}

/** Free text, trimmed; unset or empty gives null. */
export const text = (declared: Omit<Declaration<string | null>, "default">) =>
  setting<string | null>("text", (raw) => raw, { default: null, ...declared });

/** Free text with a default (a folder, an address, a model name). */
export const named = (expected: string, declared: Declaration<string>) => setting(expected, (raw) => raw, declared);

const number = (raw: string) => Number(raw);
export const positiveWhole = (declared: Declaration<number>) =>
  setting(
    "a positive whole number",
    (raw) => (Number.isSafeInteger(number(raw)) && number(raw) > 0 ? number(raw) : undefined),
    declared,
  );
export const wholeAtLeastZero = (declared: Declaration<number>) =>
  setting(
    "a whole number of at least 0",
    (raw) => (Number.isSafeInteger(number(raw)) && number(raw) >= 0 ? number(raw) : undefined),
    declared,
  );
export const positiveNumber = (declared: Declaration<number>) =>
  setting(
    "a positive number",
    (raw) => (Number.isFinite(number(raw)) && number(raw) > 0 ? number(raw) : undefined),
    declared,
  );
export const nonNegativeNumber = (declared: Declaration<number>) =>
  setting(
    "a number of at least 0",
    (raw) => (Number.isFinite(number(raw)) && number(raw) >= 0 ? number(raw) : undefined),
    declared,
  );
export const bytes = (declared: Declaration<number>) =>
  setting(
    "a positive whole number of bytes",
    (raw) => (Number.isSafeInteger(number(raw)) && number(raw) > 0 ? number(raw) : undefined),
    declared,
  );
export const port = (declared: Declaration<number>) =>
  setting(
    "a port number (0-65535)",
    (raw) => (Number.isInteger(number(raw)) && number(raw) >= 0 && number(raw) <= 65535 ? number(raw) : undefined),
    declared,
  );

/** "true" or "false"; unset gives null (the schema decides what that means). */
export const boolean = (declared: Omit<Declaration<boolean | null>, "default">) =>
  setting<boolean | null>(
    '"true" or "false"',
    (raw) => (raw.toLowerCase() === "true" ? true : raw.toLowerCase() === "false" ? false : undefined),
    { default: null, ...declared },
  );

/** An http(s) URL, without its trailing slashes. */
export const httpUrl = <T extends string | null>(declared: Declaration<T>) =>
  setting<string | T>(
    "an http(s) URL",
    (raw) => {
      try {
        const url = new URL(raw);
        if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
      } catch {
        return undefined;
      }
      return raw.replace(/\/+$/, "");
    },
    declared,
  );

/** Comma-separated items, trimmed, empty ones dropped. */
export const list = <T extends string[] | null>(declared: Declaration<T>) =>
  setting<string[] | T>(
    "a comma-separated list",
    (raw) =>
      raw
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean),
    declared,
  );

/** One of `choices`, in any case. */
export const oneOf = <C extends string, T extends C | null>(choices: readonly C[], declared: Declaration<T>) =>
  setting<C | T>(
    `one of ${choices.join(", ")}`,
    (raw) => ((choices as readonly string[]).includes(raw.toLowerCase()) ? (raw.toLowerCase() as C) : undefined),
    declared,
  );
