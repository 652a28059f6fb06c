import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { EspeakSpeech, escapeForEspeak } from "~/ai/speech/espeak-speech.server";
import { decodePngDataUrl, isPng, SKETCH_MAX_BYTES } from "~/lib/storage/file-signatures";
import { isDecodablePng, LocalSketchStylist } from "~/ai/image/local-sketch.server";
import { CLIP, LocalVideoRenderer, sceneFor, vp8KeyframeOf, wrapPrompt } from "~/ai/video/local-video.server";
import {
  composeOfflineReply,
  matchTools,
  NOT_CONFIGURED_REPLY,
  OfflineAssistant,
  rankContent,
  searchTerms,
} from "~/ai/chat/offline-assistant.server";
import { personalContext } from "~/services/assistant/assistant.server";
import { SKETCH_STYLES } from "~/common/media/sketch-styles";
import {
  cartoonPixels,
  cartoonPixelsOffThread,
  noisePixels,
  noisePixelsOffThread,
} from "~/ai/image/sketch-pixels.server";
import { stockPhotoKeywords, stockPhotoSearchUrl } from "~/common/media/stock-photo";
import { TOOL_GUIDE } from "~/common/assistant/tool-guide";
import type { VideoProgress } from "~/ai/video/video.server";
import { encodeWav, readWavHeader } from "~/ai/speech/wav";
import { newId } from "~/lib/db/ids.server";
import { DASHBOARD_TOOLS } from "~/common/tools";
import { createContent, type ContentItem } from "~/models/content/content.server";
import { createProject } from "~/models/projects/project.server";
import { newUserId } from "../support/user-rows";

/** The offline assistant as the service calls it: with the asking person's own material. */
const ask = async (userId: string, message: string) =>
  new OfflineAssistant().reply(message, await personalContext(userId, message));

const item = (title: string, body: string, updated_at = "2025-01-01T00:00:00.000Z"): ContentItem => ({
  id: newId(),
  title,
  body,
  pinned: false,
  updated_at,
});

describe("offline assistant", () => {
  it("has a guide entry for each of the 13 dashboard tools (the 12 in docs/screens.md and the library)", () => {
    expect(TOOL_GUIDE.map((tool) => tool.label)).toEqual(DASHBOARD_TOOLS.map((tool) => tool.label));
    expect(TOOL_GUIDE).toHaveLength(13);
    for (const tool of TOOL_GUIDE) expect(tool.summary.length).toBeGreaterThan(40);
  });

  it("explains a tool when asked how to use it", () => {
    expect(matchTools("How do I use the Drawing Pad?")[0].id).toBe("drawing");
    expect(matchTools("how can I record a memo with my microphone")[0].id).toBe("voicememo");
    const reply = composeOfflineReply("How do I use the Drawing Pad?", []);
    expect(reply).toContain("Drawing Pad (/drawing)");
    expect(reply).toContain("Generate AI Image");
  });

  it("searches the person's content: title hits rank above body hits, with a snippet", () => {
    const items = [
      item("Groceries", "eggs, milk and bread"),
      item("Bread recipe", "Flour, water, salt. Knead for ten minutes."),
      item("Other", "nothing here"),
    ];
    expect(searchTerms("What did I write about bread?")).toEqual(["bread"]);
    const ranked = rankContent(items, ["bread"]);
    expect(ranked.map((match) => match.item.title)).toEqual(["Bread recipe", "Groceries"]);
    const reply = composeOfflineReply("What did I write about bread?", items);
    expect(reply).toMatch(/^From your content:/);
    expect(reply).toContain('"Bread recipe"');
    expect(reply).toContain("eggs, milk and bread");
    expect(composeOfflineReply("Find my notes about volcanoes", items)).toContain(
      'I found nothing in your content or projects about "volcanoes"',
    );
  });

  it("says plainly that no model is configured, and how to configure one, for anything else", () => {
    const reply = composeOfflineReply("What is the capital of France?", [item("Groceries", "eggs")]);
    expect(reply).toBe(NOT_CONFIGURED_REPLY);
    expect(reply).toContain("AI_BASE_URL");
    expect(reply).toContain("AI_CHAT_MODEL");
    expect(reply).toContain("AI_API_KEY");
    expect(composeOfflineReply("hello", [])).toMatch(/offline assistant/);
  });

  it("reads only the asking user's content", async () => {
    const [alice, bob] = [await newUserId(), await newUserId()];
    await createContent(alice, { title: "Alice's secret plan", body: "The zeppelin launches at dawn" });
    await createContent(bob, { title: "Bob's list", body: "nothing about airships" });
    const forAlice = await ask(alice, "what did I write about the zeppelin?");
    expect(forAlice.provider).toBe("offline-assistant");
    expect(forAlice.reply).toContain("Alice's secret plan");
    const forBob = await ask(bob, "what did I write about the zeppelin?");
    expect(forBob.reply).not.toContain("Alice");
  });

  it("searches the asking user's projects too: title, description and attached media", async () => {
    const [alice, bob] = [await newUserId(), await newUserId()];
    const project = await createProject(alice, {
      title: "Zeppelin documentary",
      description: "Archive footage and a narrated intro",
      music_file: "demo2",
    });
    await createProject(bob, { title: "Bob's zeppelin idea" });
    const reply = (await ask(alice, "Which of my projects is about the zeppelin?")).reply;
    expect(reply).toContain("From your projects:");
    // Named by its title, never by a raw path (docs/screens.md, project editor's Script generator).
    expect(reply).toContain(`Project "Zeppelin documentary"`);
    expect(reply).not.toContain("/project/");
    expect(reply).not.toContain(project.id);
    expect(reply).not.toContain("Bob");
    expect((await ask(alice, "find my project with Deep Abstract Ambient")).reply).toContain("Zeppelin documentary");
    expect((await ask(bob, "what about the archive footage?")).reply).not.toContain("documentary");
  });
});

describe("offline speech (eSpeak-NG)", () => {
  const speech = new EspeakSpeech();

  it("lists a handful of the engine's English voices, American first (the screen languages' after them)", async () => {
    const voices = await speech.listVoices();
    const english = voices.filter((voice) => /^gmw\/en/.test(voice.voice_id));
    expect(english.length).toBeGreaterThanOrEqual(4);
    expect(english.length).toBeLessThanOrEqual(10);
    expect(voices[0]).toEqual({ voice_id: "gmw/en-US", name: "English (America)" });
    expect(voices.slice(0, english.length)).toEqual(english);
  });

  it("synthesises real audio as a 16-bit mono WAV at the engine's rate", async () => {
    const audio = await speech.synthesize("Hello from the studio.", "gmw/en-US");
    expect(audio.contentType).toBe("audio/wav");
    const header = readWavHeader(audio.bytes)!;
    expect(header).toMatchObject({ sampleRate: 22050, channels: 1, bitsPerSample: 16 });
    expect(header.dataBytes).toBe(audio.bytes.length - 44);
    const seconds = header.dataBytes / 2 / header.sampleRate;
    expect(seconds).toBeGreaterThan(0.8);
    expect(seconds).toBeLessThan(5);
    // Not silence.
    const samples = new Int16Array(
      audio.bytes.buffer.slice(audio.bytes.byteOffset + 44, audio.bytes.byteOffset + audio.bytes.length),
    );
    expect(Math.max(...samples.map(Math.abs))).toBeGreaterThan(1000);
    // Voices differ.
    const british = await speech.synthesize("Hello from the studio.", "gmw/en-GB-x-rp");
    expect(british.bytes.equals(audio.bytes)).toBe(false);
  });

  it("reads markup aloud instead of obeying it", async () => {
    expect(escapeForEspeak('a <break time="9s"/> & b')).toBe('a &lt;break time="9s"/&gt; &amp; b');
    const audio = await speech.synthesize('one <break time="9s"/> two', "gmw/en-US");
    // A 9 s pause would make this much longer than reading the words.
    expect(readWavHeader(audio.bytes)!.dataBytes / 2 / 22050).toBeLessThan(6);
  });

  it("encodes WAV headers byte for byte", () => {
    const wav = encodeWav(new Int16Array([0, 1, -1, 32767]), 8000);
    expect(wav.length).toBe(52);
    expect(wav.toString("ascii", 0, 4)).toBe("RIFF");
    expect(wav.readUInt32LE(4)).toBe(44);
    expect(readWavHeader(wav)).toEqual({ sampleRate: 8000, channels: 1, bitsPerSample: 16, dataBytes: 8 });
    expect(wav.readInt16LE(48)).toBe(-1);
  });
});

describe("sketch input checks", () => {
  let png: Buffer;
  beforeAll(async () => {
    png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
  });

  it("accepts a PNG data URL and checks the bytes, not the prefix", () => {
    const ok = decodePngDataUrl(`data:image/png;base64,${png.toString("base64")}`);
    expect(ok.ok && isPng(ok.bytes)).toBe(true);
    expect(decodePngDataUrl(`data:image/jpeg;base64,${png.toString("base64")}`)).toEqual({
      ok: false,
      message: expect.stringMatching(/PNG data URL/),
    });
    expect(
      decodePngDataUrl(
        `data:image/png;base64,${Buffer.from("GIF89a not a png at all, really not").toString("base64")}`,
      ),
    ).toEqual({
      ok: false,
      message: "image_data must be a PNG image",
    });
    expect(decodePngDataUrl("data:image/png;base64,@@@@")).toEqual({
      ok: false,
      message: "image_data is not valid base64",
    });
  });

  it("refuses more than 10 MiB", () => {
    const big = Buffer.alloc(SKETCH_MAX_BYTES + 1);
    png.copy(big);
    expect(decodePngDataUrl(`data:image/png;base64,${big.toString("base64")}`)).toEqual({
      ok: false,
      message: "image_data must be at most 10 MiB",
    });
  });

  it("refuses a PNG that does not decode (truncated)", async () => {
    expect(await isDecodablePng(png)).toBe(true);
    expect(await isDecodablePng(png.subarray(0, 40))).toBe(false);
  });
});

describe("offline sketch stylise", () => {
  it("renders each style differently, measurably", async () => {
    const sketch = await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="250"><rect width="100%" height="100%" fill="#10141c"/>` +
          `<path d="M20 200 Q 100 40 200 150 T 380 100" stroke="yellow" stroke-width="6" fill="none"/><circle cx="300" cy="60" r="30" stroke="#ff4081" stroke-width="5" fill="none"/></svg>`,
      ),
    )
      .png()
      .toBuffer();
    const stylist = new LocalSketchStylist();
    const outputs = new Map<string, { mean: number[]; raw: Buffer }>();
    for (const style of SKETCH_STYLES) {
      const image = await stylist.stylise(sketch, style);
      expect(image.contentType).toBe("image/png");
      const metadata = await sharp(image.bytes).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual(["png", 400, 250]);
      const stats = await sharp(image.bytes).stats();
      const raw = await sharp(image.bytes).removeAlpha().resize(100, 62, { fit: "fill" }).raw().toBuffer();
      outputs.set(style, { mean: stats.channels.slice(0, 3).map((channel) => channel.mean), raw });
    }
    // Every pair differs: in mean colour or, failing that, in per-pixel content.
    for (const a of SKETCH_STYLES) {
      for (const b of SKETCH_STYLES) {
        if (a >= b) continue;
        const [x, y] = [outputs.get(a)!, outputs.get(b)!];
        const meanDistance = Math.hypot(...x.mean.map((value, i) => value - y.mean[i]));
        let pixelDistance = 0;
        for (let i = 0; i < x.raw.length; i++) pixelDistance += Math.abs(x.raw[i] - y.raw[i]);
        pixelDistance /= x.raw.length;
        expect(meanDistance + pixelDistance, `${a} vs ${b}`).toBeGreaterThan(8);
      }
    }
  });
});

describe("offline sketches of any size", () => {
  it.each([
    [1, 1],
    [1, 40],
    [7, 3],
    [15, 200],
  ])("a %ix%i sketch is stylised in every style", async (width, height) => {
    const sketch = await sharp({
      create: { width, height, channels: 4, background: { r: 255, g: 64, b: 129, alpha: 1 } },
    })
      .png()
      .toBuffer();
    const stylist = new LocalSketchStylist();
    for (const style of SKETCH_STYLES) {
      const image = await stylist.stylise(sketch, style);
      expect(image.contentType, style).toBe("image/png");
      const metadata = await sharp(image.bytes).metadata();
      expect(metadata.format, style).toBe("png");
      expect(metadata.width, style).toBeGreaterThanOrEqual(width);
      expect(metadata.height, style).toBeGreaterThanOrEqual(height);
    }
  });
});

describe("offline sketch pixels off the main thread", () => {
  /** A sketch-like RGB canvas: dark paper with a few coloured strokes. */
  function canvas(width: number, height: number) {
    const rgb = new Uint8Array(width * height * 3);
    for (let i = 0; i < width * height; i++) rgb.set([16, 20, 28], i * 3);
    for (let x = 10; x < width - 10; x++) {
      for (const [y, colour] of [
        [Math.floor(height / 3), [255, 255, 0]],
        [Math.floor((2 * height) / 3), [0, 200, 255]],
      ] as const) {
        for (let dy = -3; dy <= 3; dy++) rgb.set(colour, ((y + dy) * width + x) * 3);
      }
    }
    return rgb;
  }

  it("the worker gives exactly what the functions give in-process", async () => {
    const rgb = canvas(120, 80);
    expect(
      Buffer.from(await cartoonPixelsOffThread(rgb, 120, 80)).equals(Buffer.from(cartoonPixels(rgb, 120, 80))),
    ).toBe(true);
    expect(
      Buffer.from(await noisePixelsOffThread(64, 48, 77, 40)).equals(Buffer.from(noisePixels(64, 48, 77, 40))),
    ).toBe(true);
    // The caller's pixels are left as they were (the worker gets a copy).
    expect(Buffer.from(rgb).equals(Buffer.from(canvas(120, 80)))).toBe(true);
  });

  it("a megapixel cartoon leaves the event loop free meanwhile", async () => {
    const [width, height] = [1024, 1024];
    const rgb = canvas(width, height);
    await cartoonPixelsOffThread(rgb, 64, 64); // the worker is warm
    const inProcessStarted = performance.now();
    cartoonPixels(rgb, width, height);
    const inProcessMs = performance.now() - inProcessStarted;

    // The longest stretch the event loop could not run a timer while the worker does the same job.
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 1);
    try {
      await cartoonPixelsOffThread(rgb, width, height);
    } finally {
      clearInterval(ticker);
    }
    expect(longestGap).toBeLessThan(inProcessMs / 2);
  });
});

describe("offline video renderer", () => {
  it("wraps the prompt into at most three lines", () => {
    expect(wrapPrompt("a short prompt")).toEqual(["a short prompt"]);
    const lines = wrapPrompt("word ".repeat(60));
    expect(lines).toHaveLength(3);
    expect(lines[2].endsWith("…")).toBe(true);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(38);
    expect(sceneFor("same prompt")).toEqual(sceneFor("same prompt"));
    expect(sceneFor("one prompt").hueA).not.toBe(sceneFor("another prompt entirely").hueA);
  });

  it("takes the VP8 keyframe out of a lossy WebP", async () => {
    const webp = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#f00" } })
      .webp({ quality: 50 })
      .toBuffer();
    const frame = vp8KeyframeOf(webp);
    // A VP8 keyframe: frame tag bit 0 clear, then the start code 9d 01 2a.
    expect(frame[0] & 1).toBe(0);
    expect([...frame.subarray(3, 6)]).toEqual([0x9d, 0x01, 0x2a]);
    expect(() => vp8KeyframeOf(Buffer.from("not a webp file at all"))).toThrow();
  });

  it("renders a WebM (EBML, VP8 track) and reports queued, processing, finishing with rising progress", async () => {
    const reports: VideoProgress[] = [];
    const video = await new LocalVideoRenderer(false).run({
      prompt: "A neon <city> & rain",
      resume: { progress: 0, externalId: null },
      signal: new AbortController().signal,
      report: async (update) => void reports.push(update),
    });
    expect(video.contentType).toBe("video/webm");
    expect([...video.bytes.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
    expect(video.bytes.includes(Buffer.from("webm"))).toBe(true);
    expect(video.bytes.includes(Buffer.from("V_VP8"))).toBe(true);
    expect(video.bytes.length).toBeGreaterThan(10_000);
    expect(reports[0].status).toBe("queued");
    expect(reports.at(-1)!.status).toBe("finishing");
    expect(reports.some((r) => r.status === "processing")).toBe(true);
    const progress = reports.map((r) => r.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(CLIP.seconds).toBeGreaterThanOrEqual(3);
  });

  it("stops when its job is aborted", async () => {
    const controller = new AbortController();
    const reason = new Error("stopped");
    controller.abort(reason);
    await expect(
      new LocalVideoRenderer(true).run({
        prompt: "x",
        resume: { progress: 0, externalId: null },
        signal: controller.signal,
        report: async () => {},
      }),
    ).rejects.toBe(reason);
  });
});

describe("image placeholder", () => {
  it("builds an 800x600 keyword stock-photo link from the prompt's meaningful words", () => {
    expect(stockPhotoSearchUrl("  red   fox & snow ")).toBe("https://loremflickr.com/800/600/red,fox,snow");
    expect(stockPhotoSearchUrl("A photo of the Red Fox in the SNOW, red fox!")).toBe(
      "https://loremflickr.com/800/600/red,fox,snow",
    );
    const url = new URL(stockPhotoSearchUrl("city at night"));
    expect([url.protocol, url.host, url.search, url.hash]).toEqual(["https:", "loremflickr.com", "", ""]);
    expect(url.pathname).toBe("/800/600/city,night");
  });

  it("keeps a handful of keywords at most, URL-encoded, with no path or query tricks", () => {
    expect(stockPhotoKeywords("one two three four five six seven")).toEqual(["one", "two", "three", "four", "five"]);
    expect(stockPhotoSearchUrl("Café über Straße")).toBe(
      "https://loremflickr.com/800/600/caf%C3%A9,%C3%BCber,stra%C3%9Fe",
    );
    const tricky = new URL(stockPhotoSearchUrl("../../admin?x=1#frag %2F <script>"));
    expect(tricky.host).toBe("loremflickr.com");
    expect(tricky.pathname).toBe("/800/600/admin,frag,2f,script");
    expect(tricky.search + tricky.hash).toBe("");
    expect(stockPhotoKeywords("x".repeat(200) + " lighthouse")).toEqual(["lighthouse"]);
  });

  it("falls back to a default keyword when the prompt has no meaningful word", () => {
    for (const prompt of ["", "   ", "the a of", "!!! ??? ..."]) {
      expect(stockPhotoSearchUrl(prompt)).toBe("https://loremflickr.com/800/600/abstract");
    }
  });
});
