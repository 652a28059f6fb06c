import { z } from "zod";
import { interpolate, msg, type Translator, type Values } from "~/common/i18n/translate";

/** Account field rules, shared by the API, the forms and the tests. */
export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

const EMAIL_REQUIRED = msg("Email is required");
const EMAIL_TOO_LONG = msg("Email must be at most {{max}} characters");
const EMAIL_INVALID = msg("Enter a valid email address");
const PASSWORD_REQUIRED = msg("Password is required");
const PASSWORD_TOO_SHORT = msg("Password must be at least {{min}} characters");
const PASSWORD_TOO_LONG = msg("Password must be at most {{max}} characters");

export const emailSchema = z
  .string({ error: EMAIL_REQUIRED })
  .trim()
  .toLowerCase()
  .min(1, EMAIL_REQUIRED)
  .max(EMAIL_MAX, interpolate(EMAIL_TOO_LONG, { max: EMAIL_MAX }))
  .pipe(z.email({ error: EMAIL_INVALID }));

export const passwordSchema = z
  .string({ error: PASSWORD_REQUIRED })
  .min(PASSWORD_MIN, interpolate(PASSWORD_TOO_SHORT, { min: PASSWORD_MIN }))
  .max(PASSWORD_MAX, interpolate(PASSWORD_TOO_LONG, { max: PASSWORD_MAX }));

export const credentialsSchema = z.object({ email: emailSchema, password: passwordSchema });

/** Login only needs something to check: the length rules apply to new passwords. */
export const loginSchema = z.object({
  email: z.string({ error: EMAIL_REQUIRED }).trim().toLowerCase().min(1, EMAIL_REQUIRED).max(EMAIL_MAX),
  password: z.string({ error: PASSWORD_REQUIRED }).min(1, PASSWORD_REQUIRED).max(PASSWORD_MAX),
});

/** A text with values that travels as its finished English (a zod message, an API `detail`), with its key and values. */
export type ValuedText = readonly [text: string, values: Values];

const RULE_TEXTS: readonly ValuedText[] = [
  [EMAIL_TOO_LONG, { max: EMAIL_MAX }],
  [PASSWORD_TOO_SHORT, { min: PASSWORD_MIN }],
  [PASSWORD_TOO_LONG, { max: PASSWORD_MAX }],
];

/**
 * The account's refusals (the rules above, the login budgets, the hash queue) in the screen's language,
 * from the finished English the models and the API make of them (`{{placeholders}}` filled, "1 minute"
 * or "5 minutes"). A text it does not know is looked up as it is (a fixed text), else shown as it came.
 * `more`: the caller's own texts with values (e.g. a token name's limit). For a loader or an action:
 * this module brings zod.
 */
export function accountText(t: Translator["t"], english: string, more: readonly ValuedText[] = []): string {
  for (const [text, values] of [...RULE_TEXTS, ...more])
    if (interpolate(text, values) === english) return t(text, values);
  let match = /^Too many failed login attempts\. Try again in (\d+) minutes?\.$/.exec(english);
  if (match) return t("Too many failed login attempts. Try again in {{count}} minutes.", { count: Number(match[1]) });
  match = /^Too many registrations from your address\. Try again in (\d+) minutes?\.$/.exec(english);
  if (match)
    return t("Too many registrations from your address. Try again in {{count}} minutes.", { count: Number(match[1]) });
  match = /^The server is busy checking passwords\. Please try again in (\d+) seconds?\.$/.exec(english);
  if (match)
    return t("The server is busy checking passwords. Please try again in {{count}} seconds.", {
      count: Number(match[1]),
    });
  return t(english);
}
