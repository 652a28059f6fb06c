import type { Translator } from "~/common/i18n/translate";

/** Which of the person's AI limits refused a call (app/models/ai-usage.server.ts). */
export type AiLimitReason = "per_minute" | "per_day" | "concurrent";

/** A refusal for the person's AI limits: which limit, its size, and the wait in seconds (the Retry-After). */
export interface AiLimitRefusal {
  reason: AiLimitReason;
  limit: number;
  retryAfterSeconds: number;
}

/**
 * The refusal's words, one whole sentence per limit (translators order it freely), in the language of
 * `t`: the API's `detail` is this in English (the English catalogue's `_one` forms say "1 second" and
 * "1 hour"), a screen says it in its own. The daily limit's wait is in whole hours, rounded up (it
 * ends at midnight UTC).
 */
export function aiLimitText(t: Translator["t"], { reason, limit, retryAfterSeconds }: AiLimitRefusal): string {
  if (reason === "per_day") {
    return t("Too many AI requests today: at most {{limit}} a day. Try again in {{count}} hours (at midnight UTC).", {
      limit,
      count: Math.ceil(retryAfterSeconds / 3600),
    });
  }
  if (reason === "per_minute") {
    return t("Too many AI requests: at most {{limit}} a minute. Try again in {{count}} seconds.", {
      limit,
      count: retryAfterSeconds,
    });
  }
  return t("Too many AI requests at once: at most {{limit}} at a time. Try again in {{count}} seconds.", {
    limit,
    count: retryAfterSeconds,
  });
}

/*
 * The API's 429 answer (docs/ai-providers.md#per-person-ai-limits) carries the English `detail` and the
 * wait (`retry_after`, Retry-After), but neither which limit it is nor its size, and the /api contract
 * stays as it is: so a browser widget reads the refusal back from the English sentence (as
 * app/common/account-rules.ts does for the login's) and says it again in the screen's language. A unit
 * test (tests/unit/ai-limit-texts.test.ts) holds these shapes to aiLimitText's English.
 */
const SHAPES: readonly (readonly [AiLimitReason, RegExp, number])[] = [
  ["per_minute", /^Too many AI requests: at most (\d+) a minute\. Try again in (\d+) seconds?\.$/, 1],
  ["concurrent", /^Too many AI requests at once: at most (\d+) at a time\. Try again in (\d+) seconds?\.$/, 1],
  [
    "per_day",
    /^Too many AI requests today: at most (\d+) a day\. Try again in (\d+) hours? \(at midnight UTC\)\.$/,
    3600,
  ],
];

/** The refusal an English AI-limit `detail` says, or null when the text is not one. */
export function aiLimitRefusalOf(detail: string): AiLimitRefusal | null {
  for (const [reason, shape, unitSeconds] of SHAPES) {
    const match = shape.exec(detail);
    if (match) return { reason, limit: Number(match[1]), retryAfterSeconds: Number(match[2]) * unitSeconds };
  }
  return null;
}

/** An English AI-limit `detail` in the language of `t`; null when the text is not one. */
export function aiLimitDetailText(t: Translator["t"], detail: string): string | null {
  const refusal = aiLimitRefusalOf(detail);
  return refusal ? aiLimitText(t, refusal) : null;
}
