import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { voicesForScreen } from "~/services/media/generation.server";
import { loadVoiceOptions } from "~/browser/ai-client";
import { speakableText } from "~/common/assistant/speech-text";
import {
  isFinished,
  pollVideoJob,
  progressTone,
  showsProgressBar,
  type VideoPollEnd,
  videoStatusText,
} from "~/browser/video-status";

describe("AI video screen rules (docs/screens.md#states-and-transitions)", () => {
  it("has a text for each status and 'Generating...' otherwise", () => {
    expect(
      ["queued", "processing", "finishing", "completed", "error", "timeout", "starting", ""].map(videoStatusText),
    ).toEqual([
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
    expect(
      ["starting", "queued", "processing", "finishing", "completed", "error", "timeout"].filter(showsProgressBar),
    ).toEqual(["queued", "processing", "finishing"]);
    expect([0, 0.49, 0.5, 0.89, 0.9, 1].map(progressTone)).toEqual(["low", "low", "mid", "mid", "high", "high"]);
    expect(["completed", "error", "timeout"].every(isFinished)).toBe(true);
    expect(isFinished("processing")).toBe(false);
  });
});

describe("AI video polling (docs/screens.md#states-and-transitions: every 1 s, stop on completed or a poll error, timeout after more than 15 polls)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Follows a job whose polls answer `answers` in turn (the last one repeats; an Error is a failed poll). */
  function follow(answers: (string | Error)[]) {
    const controller = new AbortController();
    const poll = vi.fn(async () => {
      const answer = answers[Math.min(poll.mock.calls.length - 1, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      return { status: answer };
    });
    const updates: string[] = [];
    const ends: VideoPollEnd[] = [];
    pollVideoJob({
      poll,
      onUpdate: (status) => updates.push(status.status),
      onEnd: (end) => ends.push(end),
      signal: controller.signal,
    });
    return { poll, updates, ends, controller };
  }

  it("polls once a second, and after 15 polls without an end marks the job timed out and stops", async () => {
    const job = follow(["processing"]);
    await vi.advanceTimersByTimeAsync(999);
    expect(job.poll).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(job.poll).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(14_000);
    expect(job.poll).toHaveBeenCalledTimes(15);
    expect(job.ends).toEqual([]);
    // The 16th tick polls no more: the job is timed out.
    await vi.advanceTimersByTimeAsync(1000);
    expect(job.poll).toHaveBeenCalledTimes(15);
    expect(job.ends).toEqual(["timeout"]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(job.poll).toHaveBeenCalledTimes(15);
    expect(job.updates).toHaveLength(15);
  });

  it("stops at completed, with the completed status shown", async () => {
    const job = follow(["queued", "processing", "completed"]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(job.poll).toHaveBeenCalledTimes(3);
    expect(job.updates).toEqual(["queued", "processing", "completed"]);
    expect(job.ends).toEqual(["finished"]);
  });

  it("stops at the first poll error", async () => {
    const job = follow(["processing", new Error("500")]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(job.poll).toHaveBeenCalledTimes(2);
    expect(job.updates).toEqual(["processing"]);
    expect(job.ends).toEqual(["error"]);
  });

  it("stops silently when the screen stops following the job", async () => {
    const job = follow(["processing"]);
    await vi.advanceTimersByTimeAsync(3000);
    job.controller.abort();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(job.poll).toHaveBeenCalledTimes(3);
    expect(job.ends).toEqual([]);
  });
});

describe("assistant voice list (docs/screens.md#error-messages: a failure falls back to one default voice, Creative Voice)", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("in the browser: the API's voices; on a failed call the fallback voice; an empty list stays empty", async () => {
    const answers = [
      Response.json({ voices: [{ voice_id: "v1", name: "Ada" }, { bad: true }] }),
      Response.json({ detail: "down" }, { status: 502 }),
      Response.json({ voices: [] }),
    ];
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => answers.shift()!);
    vi.stubGlobal("fetch", fetchMock);
    expect(await loadVoiceOptions()).toEqual([{ voice_id: "v1", name: "Ada" }]);
    // An empty voice_id lets the server speak in its first voice.
    expect(await loadVoiceOptions()).toEqual([{ voice_id: "", name: "Creative Voice" }]);
    expect(await loadVoiceOptions()).toEqual([]);
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      "/api/voice/voices",
      "/api/voice/voices",
      "/api/voice/voices",
    ]);
  });

  it("on the server (the page's voices): the provider's list, or the fallback voice when it fails or is too slow", async () => {
    const voices = [{ voice_id: "a", name: "A" }];
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await voicesForScreen(undefined, 1000, async () => voices)).toEqual(voices);
    expect(await voicesForScreen(undefined, 1000, async () => Promise.reject(new Error("down")))).toEqual([
      { voice_id: "", name: "Creative Voice" },
    ]);
    const started = Date.now();
    const never = () => new Promise<typeof voices>(() => {});
    expect(await voicesForScreen(undefined, 100, never)).toEqual([{ voice_id: "", name: "Creative Voice" }]);
    expect(Date.now() - started).toBeLessThan(1000);
    vi.restoreAllMocks();
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
