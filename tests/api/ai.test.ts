import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { sendForAnswer } from "../support/early-answer";
import { api, baseUrl, FINISHED_VIDEO_STATUSES, newUser, pollUntil } from "../support/api";

type User = Awaited<ReturnType<typeof newUser>>;

/** GET a stored file with the user's token. */
async function download(user: User, url: string, headers: Record<string, string> = {}) {
  const response = await fetch(baseUrl() + url, { headers: { Authorization: `Bearer ${user.token}`, ...headers } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function sketchPng() {
  return sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><rect width="100%" height="100%" fill="#10141c"/>` +
        `<path d="M10 180 Q 100 20 200 120 T 310 60" stroke="yellow" stroke-width="6" fill="none"/></svg>`,
    ),
  )
    .png()
    .toBuffer();
}

const dataUrl = (bytes: Buffer, type = "image/png") => `data:${type};base64,${bytes.toString("base64")}`;

let alice: User;
let bob: User;
beforeAll(async () => {
  [alice, bob] = await Promise.all([newUser("ai-alice"), newUser("ai-bob")]);
});

describe("GET /api/health", () => {
  it("reports test mode and the provider of each capability", async () => {
    const health = await api("/api/health");
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: "ok",
      test_mode: true,
      database: "ok",
      providers: {
        chat: "offline-assistant",
        speech: "espeak-ng",
        image: "stock-photo",
        sketch: "local-stylise",
        video: "local-renderer",
      },
    });
  });
});

describe("the AI calls need a signed-in user", () => {
  it("401 without a token on every call", async () => {
    const calls: [string, string][] = [
      ["POST", "/api/assistant/message"],
      ["GET", "/api/voice/voices"],
      ["POST", "/api/voice/generate"],
      ["POST", "/api/ai/sketch2image"],
      ["POST", "/api/aivideo/"],
      ["GET", "/api/aivideo/status/some-id"],
      ["POST", "/api/creative-tools/assistant/generate"],
      ["GET", "/media/some-id"],
    ];
    for (const [method, path] of calls) {
      const response = await api(path, { method, json: method === "POST" ? {} : undefined });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body.detail).toEqual(expect.any(String));
    }
  });
});

describe("POST /api/assistant/message", () => {
  it("answers from the offline assistant, labelled as such", async () => {
    const response = await api("/api/assistant/message", {
      token: alice.token,
      json: { message: "How do I use the Drawing Pad?" },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ reply: expect.stringContaining("Drawing Pad"), provider: "offline-assistant" });
    const general = await api("/api/assistant/message", {
      token: alice.token,
      json: { message: "Who won the 1998 world cup?" },
    });
    expect(general.body.reply).toContain("no AI model provider is configured");
    expect(general.body.reply).toContain("AI_BASE_URL");
  });

  it("searches only the asker's own content", async () => {
    await api("/api/content", {
      token: alice.token,
      json: { title: "Quokka facts", body: "Quokkas live on Rottnest Island." },
    });
    const mine = await api("/api/assistant/message", {
      token: alice.token,
      json: { message: "what did I write about quokkas?" },
    });
    expect(mine.body.reply).toContain("Quokka facts");
    const theirs = await api("/api/assistant/message", {
      token: bob.token,
      json: { message: "what did I write about quokkas?" },
    });
    expect(theirs.body.reply).not.toContain("Quokka facts");
  });

  it("refuses blank, missing, non-text and overlong questions (422) and bad JSON (400)", async () => {
    for (const json of [{ message: "   " }, {}, { message: 42 }, { message: "x".repeat(4001) }]) {
      const response = await api("/api/assistant/message", { token: alice.token, json });
      expect(response.status, JSON.stringify(json).slice(0, 40)).toBe(422);
      expect(response.body.detail).toMatch(/message/);
    }
    const bad = await api("/api/assistant/message", {
      token: alice.token,
      raw: "{not json",
      headers: { "Content-Type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect((await api("/api/assistant/message", { token: alice.token })).status).toBe(405);
  });
});

describe("voices and speech", () => {
  it("GET /api/voice/voices lists the engine's voices", async () => {
    const response = await api("/api/voice/voices", { token: alice.token });
    expect(response.status).toBe(200);
    expect(response.body.voices.length).toBeGreaterThan(2);
    expect(response.body.voices[0]).toEqual({ voice_id: "gmw/en-US", name: "English (America)" });
  });

  it("POST /api/voice/generate stores a playable WAV for its owner, served with ranges", async () => {
    const response = await api("/api/voice/generate", {
      token: alice.token,
      json: { text: "Welcome to the studio.", voice_id: "gmw/en-GB-x-rp" },
    });
    expect(response.status).toBe(201);
    // media_id and filename: the project editor attaches the clip by them.
    expect(response.body).toEqual({
      url: `/media/${response.body.media_id}`,
      audio_url: response.body.url,
      media_id: expect.stringMatching(/^[\w-]+$/),
      filename: expect.stringMatching(/^speech-welcome-to-the-studio.*\.wav$/),
      voice_id: "gmw/en-GB-x-rp",
    });

    const file = await download(alice, response.body.url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("audio/wav");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(file.headers.get("accept-ranges")).toBe("bytes");
    expect(file.bytes.toString("ascii", 0, 4)).toBe("RIFF");
    expect(file.bytes.toString("ascii", 8, 12)).toBe("WAVE");
    expect(file.bytes.length).toBeGreaterThan(20_000);

    const part = await download(alice, response.body.url, { Range: "bytes=0-43" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-43/${file.bytes.length}`);
    expect(part.bytes.equals(file.bytes.subarray(0, 44))).toBe(true);

    // Another user's file is not there for them; no session, no file.
    expect((await download(bob, response.body.url)).status).toBe(404);
    expect((await fetch(baseUrl() + response.body.url)).status).toBe(401);
  });

  it("speaks in the first voice when none is named", async () => {
    const response = await api("/api/voice/generate", { token: alice.token, json: { text: "Hi." } });
    expect(response.status).toBe(201);
    expect(response.body.voice_id).toBe("gmw/en-US");
  });

  it("refuses empty or overlong text and unknown voices (422)", async () => {
    const cases = [
      [{ text: "", voice_id: "gmw/en-US" }, /text/],
      [{ voice_id: "gmw/en-US" }, /text/],
      [{ text: "x".repeat(2001), voice_id: "gmw/en-US" }, /2,000/],
      [{ text: "hello", voice_id: "no-such-voice" }, /Unknown voice/],
      [{ text: "hello", voice_id: 7 }, /voice_id/],
    ] as const;
    for (const [json, detail] of cases) {
      const response = await api("/api/voice/generate", { token: alice.token, json });
      expect(response.status, JSON.stringify(json).slice(0, 50)).toBe(422);
      expect(response.body.detail).toMatch(detail);
    }
    // Exactly 2,000 characters is fine.
    const longest = await api("/api/voice/generate", { token: alice.token, json: { text: "la ".repeat(666) + "la" } });
    expect(longest.status).toBe(201);
  });
});

describe("POST /api/ai/sketch2image", () => {
  it("restyles the sketch; styles differ; the image is the owner's file", async () => {
    const png = await sketchPng();
    const results: Buffer[] = [];
    for (const style of ["cartoon", "futuristic"]) {
      const response = await api("/api/ai/sketch2image", {
        token: alice.token,
        json: { image_data: dataUrl(png), style },
      });
      expect(response.status).toBe(201);
      expect(response.body.image).toMatch(/^\/media\/[\w-]+$/);
      const file = await download(alice, response.body.image);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe("image/png");
      expect((await sharp(file.bytes).metadata()).width).toBe(320);
      results.push(file.bytes);
      expect((await download(bob, response.body.image)).status).toBe(404);
    }
    expect(results[0].equals(results[1])).toBe(false);
    // No style: realistic.
    const plain = await api("/api/ai/sketch2image", { token: alice.token, json: { image_data: dataUrl(png) } });
    expect(plain.body.style).toBe("realistic");
  });

  it("refuses what is not a PNG (by its bytes), too large, undecodable, or an unknown style", async () => {
    const png = await sketchPng();
    const jpeg = await sharp(png).jpeg().toBuffer();
    const big = Buffer.alloc(10 * 1024 * 1024 + 1);
    png.copy(big);
    const cases: [unknown, RegExp][] = [
      [{ image_data: dataUrl(jpeg), style: "cartoon" }, /must be a PNG image/],
      [{ image_data: dataUrl(png, "image/jpeg"), style: "cartoon" }, /PNG data URL/],
      [{ image_data: "hello", style: "cartoon" }, /PNG data URL/],
      [{ image_data: dataUrl(png.subarray(0, 60)), style: "cartoon" }, /whole PNG/],
      [{ image_data: dataUrl(big), style: "cartoon" }, /10 MiB/],
      [{ image_data: dataUrl(png), style: "watercolour" }, /style must be one of/],
      [{ style: "cartoon" }, /image_data is required/],
      [{ image_data: 12, style: "cartoon" }, /image_data/],
    ];
    for (const [json, detail] of cases) {
      const response = await api("/api/ai/sketch2image", { token: alice.token, json });
      expect(response.status, String(detail)).toBe(422);
      expect(response.body.detail).toMatch(detail);
    }
  });

  it("refuses a blank sketch (nothing drawn) with 400 and a detail, before any AI work", async () => {
    const user = await newUser("ai-blank");
    const blanks = [
      await sharp({ create: { width: 320, height: 200, channels: 3, background: "#ffffff" } })
        .png()
        .toBuffer(),
      await sharp({ create: { width: 320, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
        .png()
        .toBuffer(),
      // White with a transparent half.
      await sharp({ create: { width: 320, height: 200, channels: 4, background: "#ffffff" } })
        .composite([
          {
            input: await sharp({
              create: { width: 160, height: 200, channels: 4, background: { r: 200, g: 0, b: 0, alpha: 0 } },
            })
              .png()
              .toBuffer(),
            left: 0,
            top: 0,
            blend: "source",
          },
        ])
        .png()
        .toBuffer(),
      // The drawing pad's empty paper.
      await sharp({ create: { width: 800, height: 500, channels: 4, background: "#10141c" } })
        .png()
        .toBuffer(),
    ];
    for (const [index, png] of blanks.entries()) {
      const response = await api("/api/ai/sketch2image", {
        token: user.token,
        json: { image_data: dataUrl(png), style: "cartoon" },
      });
      expect(response.status, `blank ${index}`).toBe(400);
      expect(response.body.detail).toMatch(/blank sketch/);
    }
    // No image was made for them.
    expect((await api("/api/library", { token: user.token })).body.total).toBe(0);

    // One dot on white is a drawing.
    const dot = await sharp({ create: { width: 320, height: 200, channels: 3, background: "#ffffff" } })
      .composite([
        {
          input: await sharp({ create: { width: 2, height: 2, channels: 3, background: "#000000" } })
            .png()
            .toBuffer(),
          left: 100,
          top: 100,
        },
      ])
      .png()
      .toBuffer();
    const drawn = await api("/api/ai/sketch2image", {
      token: user.token,
      json: { image_data: dataUrl(dot), style: "cartoon" },
    });
    expect(drawn.status).toBe(201);
    expect((await api("/api/library", { token: user.token })).body.total).toBe(1);
  });

  it("refuses a body far beyond the limit with 413 without reading it all", async () => {
    // Read as soon as it comes: the server answers before the body has arrived and then closes (sendForAnswer).
    const response = await sendForAnswer(baseUrl() + "/api/ai/sketch2image", {
      body: JSON.stringify({ image_data: "data:image/png;base64," + "A".repeat(16 * 1024 * 1024), style: "cartoon" }),
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${alice.token}` },
    });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.text).detail).toMatch(/at most/);
  });
});

describe("AI video jobs", () => {
  it("runs a job through queued, processing and finishing to completed with a playable clip", async () => {
    const created = await api("/api/aivideo/", {
      token: alice.token,
      json: { prompt: "A paper boat on a rainy street" },
    });
    expect(created.status).toBe(202);
    expect(created.body).toEqual({ id: expect.any(String), status: "starting", progress: 0, url: null });

    const seen: string[] = [];
    const progress: number[] = [];
    const started = Date.now();
    // Until the job is final, however long a loaded machine takes (then it must have completed).
    const status = await pollUntil(
      async () => {
        const body = (await api(`/api/aivideo/status/${created.body.id}`, { token: alice.token })).body;
        if (seen.at(-1) !== body.status) seen.push(body.status);
        progress.push(body.progress);
        return body;
      },
      (body) => FINISHED_VIDEO_STATUSES.includes(body.status),
    );

    expect(status).toEqual({
      id: created.body.id,
      status: "completed",
      progress: 1,
      url: `/media/${status.media_id}`,
      media_id: expect.stringMatching(/^[\w-]+$/),
      error: null,
    });
    // The renderer paces its 4-second clip at playback speed: never quicker than that, however fast the
    // machine. (How much slower depends on the machine's load: nothing to assert about that here.)
    expect(Date.now() - started).toBeGreaterThan(3000);
    expect(seen).toEqual(expect.arrayContaining(["queued", "processing", "finishing", "completed"]));
    expect(seen.indexOf("queued")).toBeLessThan(seen.indexOf("processing"));
    expect(seen.indexOf("processing")).toBeLessThan(seen.indexOf("finishing"));
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const clip = await download(alice, status.url);
    expect(clip.status).toBe(200);
    expect(clip.headers.get("content-type")).toBe("video/webm");
    expect([...clip.bytes.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
    const seek = await download(alice, status.url, { Range: "bytes=100-" });
    expect(seek.status).toBe(206);
    expect(seek.bytes.length).toBe(clip.bytes.length - 100);

    // Another user sees neither the job nor the clip.
    expect((await api(`/api/aivideo/status/${created.body.id}`, { token: bob.token })).status).toBe(404);
    expect((await download(bob, status.url)).status).toBe(404);
  }, 180_000);

  it("accepts /api/aivideo without the slash; refuses empty prompts (422); unknown jobs are 404", async () => {
    const created = await api("/api/aivideo", { token: bob.token, json: { prompt: "short" } });
    expect(created.status).toBe(202);
    for (const json of [{ prompt: "  " }, {}, { prompt: ["x"] }, { prompt: "x".repeat(1001) }]) {
      const response = await api("/api/aivideo/", { token: bob.token, json });
      expect(response.status).toBe(422);
      expect(response.body.detail).toMatch(/prompt/);
    }
    const unknown = await api("/api/aivideo/status/00000000-0000-0000-0000-000000000000", { token: bob.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: "Video job not found" });
  });
});

describe("unfinished AI video jobs per person (VIDEO_MAX_ACTIVE_JOBS, 3 by default)", () => {
  it("refuses a fourth unfinished job with 429 through both doors; others are not held back; a finished job frees a place", async () => {
    const carol = await newUser("ai-carol");
    const accepted = [
      await api("/api/aivideo/", { token: carol.token, json: { prompt: "first of three" } }),
      await api("/api/creative-tools/aivideo/generate", { token: carol.token, json: { prompt: "second of three" } }),
      await api("/api/aivideo", { token: carol.token, json: { prompt: "third of three" } }),
    ];
    expect(accepted.map((response) => response.status)).toEqual([202, 202, 202]);

    const detail = "You already have 3 videos being generated. Wait for one to finish, then try again.";
    const refused = await api("/api/aivideo/", { token: carol.token, json: { prompt: "one too many" } });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail });
    const refusedToo = await api("/api/creative-tools/aivideo/generate", {
      token: carol.token,
      json: { prompt: "one too many" },
    });
    expect(refusedToo.status).toBe(429);
    expect(refusedToo.body).toEqual({ detail });

    const dave = await newUser("ai-dave");
    expect((await api("/api/aivideo/", { token: dave.token, json: { prompt: "mine" } })).status).toBe(202);

    // Once one of carol's jobs has finished, she may start another.
    const statuses = await pollUntil(
      () =>
        Promise.all(
          accepted.map(
            async (response) =>
              (await api(`/api/aivideo/status/${response.body.id}`, { token: carol.token })).body.status,
          ),
        ),
      (seen) => seen.some((status) => FINISHED_VIDEO_STATUSES.includes(status)),
    );
    expect(statuses).toContain("completed");
    expect((await api("/api/aivideo/", { token: carol.token, json: { prompt: "now there is room" } })).status).toBe(
      202,
    );
  }, 180_000);
});

describe("POST /api/creative-tools/{tool}/generate", () => {
  it("assistant -> text; voice -> audio_url and url; aivideo -> a job to follow", async () => {
    const assistant = await api("/api/creative-tools/assistant/generate", {
      token: alice.token,
      json: { prompt: "How do I record a voice memo?" },
    });
    expect(assistant.status).toBe(200);
    expect(assistant.body).toEqual({ text: expect.stringContaining("Voice Memo"), provider: "offline-assistant" });

    const voice = await api("/api/creative-tools/voice/generate", {
      token: alice.token,
      json: { text: "Hello project." },
    });
    expect(voice.status).toBe(201);
    expect(voice.body.audio_url).toMatch(/^\/media\//);
    expect(voice.body.url).toBe(voice.body.audio_url);
    expect(voice.body).toEqual({
      audio_url: `/media/${voice.body.media_id}`,
      url: voice.body.audio_url,
      media_id: expect.stringMatching(/^[\w-]+$/),
      filename: expect.stringMatching(/^speech-hello-project.*\.wav$/),
      voice_id: "gmw/en-US",
    });
    expect((await download(alice, voice.body.url)).headers.get("content-type")).toBe("audio/wav");

    const video = await api("/api/creative-tools/aivideo/generate", {
      token: alice.token,
      json: { prompt: "Fireflies" },
    });
    expect(video.status).toBe(202);
    expect(video.body).toMatchObject({
      id: expect.any(String),
      status: "starting",
      status_url: `/api/aivideo/status/${video.body.id}`,
      video_url: null,
    });
  });

  it("image -> 200 with the image screen's stock-photo link when no image model is configured (nothing stored)", async () => {
    const image = await api("/api/creative-tools/image/generate", {
      token: alice.token,
      json: { prompt: "A red fox in the snow" },
    });
    expect(image.status).toBe(200);
    expect(image.body).toEqual({
      image_url: "https://loremflickr.com/800/600/red,fox,snow",
      url: "https://loremflickr.com/800/600/red,fox,snow",
      provider: "stock-photo",
    });
    // The same link the image screen builds from the prompt.
    const { stockPhotoSearchUrl } = await import("~/common/media/stock-photo");
    expect(image.body.image_url).toBe(stockPhotoSearchUrl("A red fox in the snow"));
  });

  it("validates input per tool (422) and refuses unknown tools (404)", async () => {
    expect(
      (await api("/api/creative-tools/assistant/generate", { token: alice.token, json: { prompt: " " } })).status,
    ).toBe(422);
    expect(
      (await api("/api/creative-tools/voice/generate", { token: alice.token, json: { prompt: "text is the field" } }))
        .status,
    ).toBe(422);
    expect((await api("/api/creative-tools/image/generate", { token: alice.token, json: {} })).status).toBe(422);
    expect(
      (await api("/api/creative-tools/aivideo/generate", { token: alice.token, json: { prompt: "" } })).status,
    ).toBe(422);
    const unknown = await api("/api/creative-tools/music/generate", { token: alice.token, json: { prompt: "x" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe("Unknown creative tool");
  });
});

describe("GET /media/{id}", () => {
  it("404 for unknown ids, including ones that could never be a key", async () => {
    for (const id of ["nope", "00000000-0000-0000-0000-000000000000", "..%2F..%2Fetc%2Fpasswd"]) {
      expect((await download(alice, `/media/${id}`)).status).toBe(404);
    }
  });
});
