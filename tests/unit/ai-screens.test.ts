import { describe, expect, it } from "vitest";
import { FALLBACK_VOICE, speakableText } from "~/browser/ai-client";
import { isFinished, progressTone, showsProgressBar, VIDEO_MAX_POLLS, VIDEO_POLL_MS, videoStatusText } from "~/browser/video-status";

describe("AI video screen rules (SPEC §4)", () => {
  it("has a text for each status and 'Generating...' otherwise", () => {
    expect(["queued", "processing", "finishing", "completed", "error", "timeout", "starting", ""].map(videoStatusText)).toEqual([
      "Queued...",
      "Processing video...",
      "Finalizing...",
      "✅ Completed!",
      "❌ Error generating video.",
      "⚠️ Timed out.",
      "Generating...",
      "Generating...",
    ]);
  });

  it("shows the bar only in queued, processing and finishing; its colour changes below 50% and 90%", () => {
    expect(["starting", "queued", "processing", "finishing", "completed", "error", "timeout"].filter(showsProgressBar)).toEqual([
      "queued",
      "processing",
      "finishing",
    ]);
    expect([0, 0.49, 0.5, 0.89, 0.9, 1].map(progressTone)).toEqual(["low", "low", "mid", "mid", "high", "high"]);
    expect(["completed", "error", "timeout"].every(isFinished)).toBe(true);
    expect(isFinished("processing")).toBe(false);
    expect([VIDEO_POLL_MS, VIDEO_MAX_POLLS]).toEqual([1000, 15]);
  });
});

describe("assistant screen rules", () => {
  it("falls back to 'Creative Voice' (the server's first voice)", () => {
    expect(FALLBACK_VOICE).toEqual({ voice_id: "", name: "Creative Voice" });
  });

  it("speaks long replies up to 2,000 characters, cut at a sentence end", () => {
    expect(speakableText("  short  ")).toBe("short");
    const long = "This is one sentence. ".repeat(120);
    const spoken = speakableText(long);
    expect(spoken.length).toBeLessThanOrEqual(2000);
    expect(spoken.endsWith("sentence.")).toBe(true);
    expect(speakableText("x".repeat(2500))).toHaveLength(2000);
  });
});
