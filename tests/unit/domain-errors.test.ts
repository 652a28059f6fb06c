import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProviderError } from "~/ai/errors.server";
import { frameSvg, LocalVideoRenderer, sceneFor, wrapPrompt } from "~/ai/video/local-video.server";
import type { VideoProvider } from "~/ai/video/video.server";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { sniffMp3 } from "~/lib/storage/file-signatures";
import { apiAction, errorResponse, methodNotAllowed } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { createDiskStore } from "~/lib/storage/disk-store.server";
import { receiveMultipartUpload, STALLED_MESSAGE, UPLOAD_STALLED } from "~/lib/storage/upload.server";
import { contentInputSchema } from "~/models/content/content-input.server";
import { createVideoJob, getVideoJob, VIDEO_JOB_LIMIT } from "~/models/video-jobs/video-job.server";
import { projectCreateSchema } from "~/models/projects/project-input.server";
import { providerFailure } from "~/services/provider-failure.server";
import { VideoJobRunner } from "~/services/video-jobs/video-job-runner.server";
import { checkMediaName, displayText, nameFromUpload } from "~/common/media/media-names";
import { mp3Frames } from "../support/media";
import { newUserId } from "../support/user-rows";

describe("errorResponse: the API's one responder", () => {
  it("answers a DomainError as {detail, ...data} with its status and headers", async () => {
    const answer = errorResponse(
      new DomainError(409, "Changed meanwhile", { data: { current: { id: "x" } }, headers: { "Retry-After": "3" } }),
    );
    expect(answer.status).toBe(409);
    expect(answer.headers.get("retry-after")).toBe("3");
    expect(await answer.json()).toEqual({ detail: "Changed meanwhile", current: { id: "x" } });
    const refused = errorResponse(methodNotAllowed("GET, PUT"));
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")).toBe("GET, PUT");
  });

  it("rethrows anything else: a thrown Response passes through, a bug stays a bug", async () => {
    const bug = new TypeError("boom");
    expect(() => errorResponse(bug)).toThrow(bug);
    const handler = apiAction(async (what: string) => {
      if (what === "invalid") parseInput(contentInputSchema, {});
      throw bug;
    });
    const invalid = await handler("invalid");
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({ detail: "Title is required" });
    await expect(handler("bug")).rejects.toBe(bug);
  });

  it("a provider failure becomes the text in docs/screens.md#error-messages with 502, 503 or 504; its own words stay in the log", () => {
    const rejected = providerFailure(new ProviderError("chat", "remote", "rejected", "HTTP 401 secret"), "chat");
    expect(rejected).toBeInstanceOf(DomainError);
    expect([rejected.status, rejected.detail]).toEqual([502, "Something went wrong."]);
    expect(providerFailure(new ProviderError("video", "remote", "timeout"), "video").status).toBe(504);
    const none = providerFailure(new ProviderError("image", "none", "not_configured", "Set AI_IMAGE_MODEL"), "image");
    expect([none.status, none.detail]).toEqual([503, "Set AI_IMAGE_MODEL"]);
  });
});

describe("uploads that go silent", () => {
  it("are refused with 408 (not dropped without an answer), and nothing of the file is kept", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "studio-stall-"));
    const boundary = "----stall";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.mp3"\r\n\r\n`;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
        controller.enqueue(new Uint8Array(mp3Frames(3)));
        // ...and then nothing, ever.
      },
    });
    const request = new Request("http://localhost/upload", {
      method: "POST",
      body,
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      duplex: "half",
    } as RequestInit);
    const started = Date.now();
    const refused = await receiveMultipartUpload(request, {
      maxBytes: 1_000_000,
      inspect: sniffMp3,
      unsupportedMessage: "Only MP3 files allowed",
      store: createDiskStore(root),
      idleLimitMs: 150,
    }).catch((error) => error);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ status: 408, detail: STALLED_MESSAGE, code: UPLOAD_STALLED });
    const answer = errorResponse(refused);
    expect(answer.headers.get("connection")).toBe("close");
    expect(await answer.json()).toEqual({ detail: STALLED_MESSAGE });
    // The partial file is removed as the refusal unwinds: gone at once on a quiet machine, within a few
    // seconds on a loaded one (a file that stays fails here).
    const filesLeft = () =>
      fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    for (const deadline = Date.now() + 30_000; filesLeft().length > 0 && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(filesLeft()).toEqual([]);
  });
});

describe("control and bidirectional characters in names and titles", () => {
  it("are stripped from titles (content and projects) and uploaded or typed file names", () => {
    expect(displayText("\u202Egnp.mp3")).toBe("gnp.mp3");
    expect(contentInputSchema.parse({ title: " \u2067Report\u2069\u0000 2024\u200E " }).title).toBe("Report  2024");
    expect(projectCreateSchema.parse({ title: "\u202ALaunch\u202C\r\nfilm" }).title).toBe("Launch  film");
    expect(contentInputSchema.safeParse({ title: "\u202E\u200F" }).error?.issues[0].message).toBe("Title is required");
    expect(nameFromUpload("\u202Egnp.mp3", "voice")).toBe("gnp.mp3");
    expect(nameFromUpload("clip\u2066\u202D.mov", "video")).toBe("clip.mov");
    expect(checkMediaName("\u202Egnp", "voice")).toEqual({ ok: true, name: "gnp.mp3" });
    expect(checkMediaName("\u202E", "voice")).toEqual({ ok: false, message: "Name is required" });
    // Control characters in a typed name are still refused, as before.
    expect(checkMediaName("a\u0000b", "voice")).toEqual({
      ok: false,
      message: "Name must not contain control characters",
    });
  });
});

describe("AI video prompts with control characters", () => {
  it("render: the frame's SVG stays readable with NUL and other control characters in the prompt", async () => {
    const prompt = "sunset\u0000 over\u0001 the \u001bsea\u007f\u0085 \uffff";
    expect(wrapPrompt(prompt).join(" ")).toBe("sunset over the sea");
    const svg = frameSvg(sceneFor(prompt), 47);
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    expect(png.subarray(1, 4).toString("ascii")).toBe("PNG");
  });

  it("a job whose prompt holds a NUL completes instead of ending in error", async () => {
    await db.deleteFrom("video_jobs").execute();
    const user = await newUserId();
    const job = await createVideoJob(user, "a\u0000b\u0007c", "local-renderer");
    const runner = new VideoJobRunner(new LocalVideoRenderer(false), { tickMs: 50, staleMs: 300 });
    try {
      await runner.start();
      const started = Date.now();
      let seen = await getVideoJob(user, job.id);
      while (seen && !["completed", "error", "timeout"].includes(seen.status) && Date.now() - started < 120_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        seen = await getVideoJob(user, job.id);
      }
      expect(seen).toMatchObject({ status: "completed", error: null, progress: 1 });
    } finally {
      await runner.stop();
    }
  }, 180_000);
});

describe("the video job runner's life cycle", () => {
  beforeEach(async () => {
    await db.deleteFrom("video_jobs").execute();
  });
  const runners: VideoJobRunner[] = [];
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  });

  it("stop ends the pass in hand and claims nothing more; the job resumes on the next start", async () => {
    const user = await newUserId();
    const runs: string[] = [];
    const provider: VideoProvider = {
      id: "scripted",
      offline: true,
      run: (job) => {
        runs.push(job.prompt);
        return new Promise((_resolve, reject) => job.signal.addEventListener("abort", () => reject(job.signal.reason)));
      },
    };
    const runner = new VideoJobRunner(provider, { tickMs: 50, staleMs: 200 });
    runners.push(runner);
    const first = await createVideoJob(user, "first", "scripted");
    await runner.start();
    expect(runs).toEqual(["first"]);
    await runner.stop();

    // Stopped: a new job is not claimed, whatever ticks.
    const second = await createVideoJob(user, "second", "scripted");
    await runner.tick();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runs).toEqual(["first"]);
    expect((await getVideoJob(user, second.id))?.status).toBe("starting");

    // Started again: the interrupted job (its heartbeat now stale) and the new one are worked.
    await runner.start();
    expect(runs.sort()).toEqual(["first", "first", "second"].sort());
    expect((await getVideoJob(user, first.id))?.status).not.toMatch(/error|timeout/);
  });

  it("the limit refusal is a 429 DomainError with its code", async () => {
    const user = await newUserId();
    await createVideoJob(user, "one", "scripted", { maxUnfinished: 1 });
    const refused = await createVideoJob(user, "two", "scripted", { maxUnfinished: 1 }).catch((error) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ status: 429, code: VIDEO_JOB_LIMIT });
  });
});
