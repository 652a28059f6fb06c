import { describe, expect, it } from "vitest";
import { aiLimitDetailText, aiLimitRefusalOf, aiLimitText, type AiLimitRefusal } from "~/common/ai-limit-texts";
import { aiFailureText } from "~/browser/ai-client";
import { ApiError, detailText } from "~/browser/api-client";
import { videoRefusalText } from "~/browser/video-status";
import { translatorFor } from "~/lib/i18n/catalogues.server";
import { errorResponse } from "~/lib/http/responder.server";
import { aiLimitedMessage, AiLimitedError, AI_LIMITED, screenAiFailure } from "~/services/ai-limits.server";

/**
 * The AI limits' refusal (decision 0038): the API's `detail` stays the English sentence it always was
 * (docs/ai-providers.md#per-person-ai-limits), and a screen says it in its language with the language's
 * plural forms: from the refusal itself on the server, read back from the English in the browser.
 */
const de = translatorFor("de");
const en = translatorFor("en");
const FAILED = "AI generation failed. Please try again.";

const minute = (retryAfterSeconds: number): AiLimitRefusal => ({ reason: "per_minute", limit: 20, retryAfterSeconds });
const atOnce = (retryAfterSeconds: number): AiLimitRefusal => ({ reason: "concurrent", limit: 2, retryAfterSeconds });
const day = (retryAfterSeconds: number): AiLimitRefusal => ({ reason: "per_day", limit: 3, retryAfterSeconds });

describe("the AI limits' refusal in English (the API's detail)", () => {
  it("is the same sentence as before, with English's one and other forms", () => {
    expect(aiLimitedMessage(minute(1))).toBe("Too many AI requests: at most 20 a minute. Try again in 1 second.");
    expect(aiLimitedMessage(minute(42))).toBe("Too many AI requests: at most 20 a minute. Try again in 42 seconds.");
    expect(aiLimitedMessage(atOnce(1))).toBe(
      "Too many AI requests at once: at most 2 at a time. Try again in 1 second.",
    );
    expect(aiLimitedMessage(atOnce(5))).toBe(
      "Too many AI requests at once: at most 2 at a time. Try again in 5 seconds.",
    );
    // The daily limit's wait in whole hours, rounded up.
    expect(aiLimitedMessage(day(1200))).toBe(
      "Too many AI requests today: at most 3 a day. Try again in 1 hour (at midnight UTC).",
    );
    expect(aiLimitedMessage(day(4 * 3600 + 1))).toBe(
      "Too many AI requests today: at most 3 a day. Try again in 5 hours (at midnight UTC).",
    );
  });

  it("the 429 answers {detail, retry_after} with Retry-After, and nothing more", async () => {
    const error = new AiLimitedError(minute(42));
    expect(error).toMatchObject({ status: 429, code: AI_LIMITED, detail: aiLimitedMessage(minute(42)) });
    const answer = errorResponse(error);
    expect(answer.status).toBe(429);
    expect(answer.headers.get("Retry-After")).toBe("42");
    expect(await answer.json()).toEqual({ detail: aiLimitedMessage(minute(42)), retry_after: 42 });
  });

  it("reads every English sentence back into the refusal it says (the browser's way)", () => {
    for (const refusal of [minute(1), minute(59), atOnce(1), atOnce(5), day(3600), day(5 * 3600)]) {
      const english = aiLimitedMessage(refusal);
      expect(aiLimitRefusalOf(english), english).toEqual(refusal);
      expect(aiLimitDetailText(en.t, english)).toBe(english);
    }
    expect(aiLimitRefusalOf("Too many requests. Try again in 5 seconds.")).toBeNull();
    expect(aiLimitDetailText(de.t, "Something else")).toBeNull();
  });
});

describe("the AI limits' refusal on a German screen", () => {
  it("the server's screens say it in German from the refusal, with German's plural; the detail stays English", () => {
    const oneHour = new AiLimitedError(day(1200));
    const fiveHours = new AiLimitedError(day(5 * 3600));
    expect(screenAiFailure(de.t(FAILED), oneHour, de.t)).toEqual({
      message:
        "KI-Generierung fehlgeschlagen. Bitte versuche es erneut. Heute zu viele KI-Anfragen: höchstens 3 pro Tag. Versuche es in 1 Stunde noch einmal (um Mitternacht UTC).",
      status: 429,
      headers: { "Retry-After": "1200" },
    });
    expect(screenAiFailure(de.t(FAILED), fiveHours, de.t).message).toContain("Versuche es in 5 Stunden noch einmal");
    expect(oneHour.detail).toBe("Too many AI requests today: at most 3 a day. Try again in 1 hour (at midnight UTC).");
    expect(fiveHours.detail).toBe(
      "Too many AI requests today: at most 3 a day. Try again in 5 hours (at midnight UTC).",
    );
    expect(aiLimitText(de.t, minute(1))).toBe(
      "Zu viele KI-Anfragen: höchstens 20 pro Minute. Versuche es in 1 Sekunde noch einmal.",
    );
    expect(aiLimitText(de.t, atOnce(5))).toBe(
      "Zu viele KI-Anfragen gleichzeitig: höchstens 2 auf einmal. Versuche es in 5 Sekunden noch einmal.",
    );
    // In English the screen says the API's sentence.
    expect(screenAiFailure(FAILED, oneHour, en.t).message).toBe(`${FAILED} ${oneHour.detail}`);
  });

  it("the browser's widgets say the API's English detail in German (AI screens, video jobs, generators)", () => {
    const refused = new ApiError(429, aiLimitedMessage(minute(42)));
    expect(aiFailureText(FAILED, refused, de.t)).toBe(
      "KI-Generierung fehlgeschlagen. Bitte versuche es erneut. Zu viele KI-Anfragen: höchstens 20 pro Minute. Versuche es in 42 Sekunden noch einmal.",
    );
    expect(aiFailureText(FAILED, new ApiError(429, aiLimitedMessage(day(3600))), de.t)).toContain(
      "Versuche es in 1 Stunde noch einmal",
    );
    // Not a 429: only the failure text.
    expect(aiFailureText(FAILED, new TypeError("Failed to fetch"), de.t)).toBe(de.t(FAILED));
    expect(videoRefusalText(de.t, aiLimitedMessage(atOnce(1)))).toBe(
      "Zu viele KI-Anfragen gleichzeitig: höchstens 2 auf einmal. Versuche es in 1 Sekunde noch einmal.",
    );
    expect(detailText(de.t, aiLimitedMessage(minute(5)))).toContain("in 5 Sekunden");
    // An answer without a detail of its own (a proxy's 502 page) is said in German too.
    expect(detailText(de.t, "Request failed (502)")).toBe("Anfrage fehlgeschlagen (502)");
  });

  it("Arabic has its own forms for one, two and a few hours", () => {
    const ar = translatorFor("ar");
    expect(aiLimitText(ar.t, day(3600))).toContain("بعد ساعة واحدة");
    expect(aiLimitText(ar.t, day(2 * 3600))).toContain("بعد ساعتين");
    expect(aiLimitText(ar.t, day(5 * 3600))).toContain("بعد 5 ساعات");
  });
});
