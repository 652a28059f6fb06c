import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendForAnswer } from "../support/early-answer";
import { startTestServer, type RunningServer } from "../support/server";
import { isoMedia, mp3WithId3, mp4Bytes, PNG_BYTES, webmBytes } from "../support/media";
import { api, baseUrl, newUser, PASSWORD } from "../support/api";

/** A multipart body: the file in `file` and, when given, the `kind` field (before or after the file). */
function saveForm(bytes: Buffer, filename: string, kind?: string, kindFirst = true) {
  const form = new FormData();
  if (kind !== undefined && kindFirst) form.append("kind", kind);
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "application/octet-stream" }), filename);
  if (kind !== undefined && !kindFirst) form.append("kind", kind);
  return form;
}

const save = (token: string, bytes: Buffer, filename: string, kind?: string, kindFirst = true) =>
  api("/api/library/upload", { raw: saveForm(bytes, filename, kind, kindFirst), token });

/** A real (decodable) PNG of the given size. */
const realPng = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();

const m4aBytes = (payload = 64) => isoMedia("M4A ", payload);

describe("POST /api/library/upload", () => {
  it("saves a photo (PNG), a camera clip (WebM) and a voice memo (M4A) as 201 with the file", async () => {
    const { token } = await newUser("lib");
    const png = await realPng(64, 48);
    const photo = await save(token, png, "camera-matrix-2026-01-15-120405.png", "photo");
    expect(photo.status).toBe(201);
    expect(photo.body).toMatchObject({
      name: "camera-matrix-2026-01-15-120405.png",
      kind: "photo",
      size: png.length,
      content_type: "image/png",
      width: 64,
      height: 48,
      provenance: null,
    });
    expect(photo.body.url).toBe(`/media/${photo.body.id}`);
    expect(photo.headers.get("location")).toBe(`/api/library/${photo.body.id}`);

    // The kind field may come after the file.
    const clip = await save(token, webmBytes(256), "camera-clip.webm", "clip", false);
    expect(clip).toMatchObject({
      status: 201,
      body: { kind: "clip", name: "camera-clip.webm", content_type: "video/webm" },
    });
    const memo = await save(token, m4aBytes(), "voice-memo.m4a", "memo");
    expect(memo).toMatchObject({
      status: 201,
      body: { kind: "memo", name: "voice-memo.m4a", content_type: "audio/mp4" },
    });
    // Chromium's MediaRecorder writes audio/mp4 with an "isom" brand.
    expect((await save(token, mp4Bytes(), "chromium-memo.m4a", "memo")).status).toBe(201);

    const file = await api(`/media/${photo.body.id}`, { token });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
  });

  it("sniffs the content: the wrong bytes for the kind are 415 and nothing is kept", async () => {
    const { token } = await newUser("lib");
    expect(await save(token, webmBytes(), "photo.png", "photo")).toMatchObject({
      status: 415,
      body: { detail: "A photo must be a PNG image" },
    });
    expect(await save(token, PNG_BYTES, "clip.webm", "clip")).toMatchObject({
      status: 415,
      body: { detail: "A camera clip must be a WebM video" },
    });
    expect(await save(token, mp3WithId3(), "memo.m4a", "memo")).toMatchObject({
      status: 415,
      body: { detail: "A voice memo must be M4A (MP4 audio)" },
    });
    expect((await save(token, Buffer.from("just some text, not media at all"), "x.png", "photo")).status).toBe(415);
    expect((await save(token, Buffer.alloc(0), "empty.png", "photo")).status).toBe(422);
    expect((await api("/api/library", { token })).body).toMatchObject({ files: [], total: 0 });
  });

  it("a kind other than photo, clip or memo is 422; a missing file is 422", async () => {
    const { token } = await newUser("lib");
    for (const kind of ["voice", "image", "", "nope"]) {
      const answer = await save(token, PNG_BYTES, "x.png", kind);
      expect(answer.status).toBe(422);
      expect(answer.body.detail).toBe("kind must be one of: photo, clip, memo");
    }
    expect((await save(token, PNG_BYTES, "x.png")).status).toBe(422);
    const noFile = new FormData();
    noFile.append("kind", "photo");
    expect((await api("/api/library/upload", { raw: noFile, token })).status).toBe(422);
    expect((await api("/api/library", { token })).body.total).toBe(0);
  });

  it("a taken name is numbered; without a session it is 401", async () => {
    const { token } = await newUser("lib");
    expect((await save(token, PNG_BYTES, "snap.png", "photo")).body.name).toBe("snap.png");
    expect((await save(token, PNG_BYTES, "snap.png", "photo")).body.name).toBe("snap (2).png");
    expect((await api("/api/library/upload", { raw: saveForm(PNG_BYTES, "x.png", "photo") })).status).toBe(401);
  });
});

describe("GET /api/library", () => {
  let token: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({ token } = await newUser("lib-list"));
    // Oldest to newest: a voice clip, a video, a photo, a memo, generated speech (with provenance).
    const voice = new FormData();
    voice.append("file", new Blob([new Uint8Array(mp3WithId3(5))]), "Morning take.mp3");
    expect((await api("/api/voice/upload", { raw: voice, token })).status).toBe(201);
    const video = new FormData();
    video.append("file", new Blob([new Uint8Array(mp4Bytes(4000))]), "Holiday.mp4");
    expect((await api("/api/videos/upload", { raw: video, token })).status).toBe(201);
    ids.photo = (await save(token, await realPng(20, 10), "Sunset photo.png", "photo")).body.id;
    ids.memo = (await save(token, m4aBytes(10), "shopping list.m4a", "memo")).body.id;
    const spoken = await api("/api/voice/generate", { token, json: { text: "Hello from the library" } });
    expect(spoken.status).toBe(201);
    ids.speech = spoken.body.media_id;
  });

  it("lists every kind of file, newest first, with the contract's fields", async () => {
    const { status, body, headers } = await api("/api/library", { token });
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("no-store");
    expect(body.total).toBe(5);
    expect(body.page).toBe(1);
    expect(body.files.map((file: { kind: string }) => file.kind)).toEqual([
      "speech",
      "memo",
      "photo",
      "video",
      "voice",
    ]);
    for (const file of body.files) {
      expect(Object.keys(file)).toEqual(
        expect.arrayContaining(["id", "name", "kind", "size", "content_type", "created_at", "url", "provenance"]),
      );
      expect(file.url).toBe(`/media/${file.id}`);
    }
    const voice = body.files.find((file: { kind: string }) => file.kind === "voice");
    expect(voice).toMatchObject({ name: "Morning take.mp3", content_type: "audio/mpeg", provenance: null });
    // Voice clips and videos are served from their library URL too.
    expect((await api(voice.url, { token })).status).toBe(200);
  });

  it("generated speech carries its provenance: the text, the voice, the provider", async () => {
    const { body } = await api(`/api/library/${ids.speech}`, { token });
    expect(body.kind).toBe("speech");
    expect(body.provenance).toMatchObject({ prompt: "Hello from the library", provider: expect.any(String) });
    expect(body.provenance.voice).toEqual(expect.any(String));
    expect(body.duration_ms).toBeGreaterThan(0);
  });

  it("filters by kind, searches name and prompt (case-insensitive), sorts by date or size, pages", async () => {
    const kinds = async (query: string) =>
      (await api(`/api/library?${query}`, { token })).body.files.map((file: { kind: string }) => file.kind);
    expect(await kinds("kind=photo")).toEqual(["photo"]);
    expect(await kinds("kind=memo")).toEqual(["memo"]);
    expect(await kinds("q=SUNSET")).toEqual(["photo"]);
    // The prompt (the spoken text) matches, not only the name.
    expect(await kinds("q=from%20the%20library")).toEqual(["speech"]);
    expect(await kinds("q=%25")).toEqual([]);
    expect(await kinds("sort=date")).toEqual(["voice", "video", "photo", "memo", "speech"]);
    const sizes = (await api("/api/library?sort=-size", { token })).body.files.map(
      (file: { size: number }) => file.size,
    );
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    const ascending = (await api("/api/library?sort=size", { token })).body.files.map(
      (file: { size: number }) => file.size,
    );
    expect(ascending).toEqual([...sizes].reverse());

    const first = await api("/api/library?per_page=2&page=1", { token });
    const third = await api("/api/library?per_page=2&page=3", { token });
    expect(first.body).toMatchObject({ total: 5, page: 1 });
    expect(first.body.files).toHaveLength(2);
    expect(third.body.files.map((file: { kind: string }) => file.kind)).toEqual(["voice"]);
    expect((await api("/api/library?page=9", { token })).body).toMatchObject({ files: [], total: 5, page: 9 });
  });

  it("names the next page by cursor in Link, for every sort; a cursor of another sort is 400", async () => {
    for (const sort of ["-date", "date", "-size", "size"]) {
      const whole = (await api(`/api/library?sort=${sort}`, { token })).body.files.map(
        (file: { id: string }) => file.id,
      );
      const seen: string[] = [];
      let next: string | null = `/api/library?sort=${sort}&per_page=2`;
      let pages = 0;
      while (next) {
        const page: Awaited<ReturnType<typeof api<{ files: { id: string }[] }>>> = await api(next, { token });
        expect(page.status).toBe(200);
        expect(page.body).toMatchObject({ total: 5, page: ++pages, per_page: 2, sort });
        seen.push(...page.body.files.map((file) => file.id));
        const link: string | null = page.headers.get("link");
        next = link ? /<([^>]+)>; rel="next"/.exec(link)![1]! : null;
        if (next)
          expect(next).toMatch(
            new RegExp(`^/api/library\\?sort=${sort.replace("-", "\\-")}&per_page=2&page=${pages + 1}&cursor=[\\w-]+$`),
          );
      }
      expect(seen, sort).toEqual(whole);
      expect(pages).toBe(3);
    }
    const first = await api("/api/library?per_page=1", { token });
    const cursor = new URL(/<([^>]+)>/.exec(first.headers.get("link")!)![1]!, "http://x").searchParams.get("cursor");
    for (const query of [`sort=-size&cursor=${cursor}`, "cursor=nonsense", "cursor=e30"]) {
      const refused = await api(`/api/library?${query}`, { token });
      expect(refused.status, query).toBe(400);
      expect(typeof refused.body.detail).toBe("string");
    }
  });

  it("a bad kind, sort or page is 422 with a detail", async () => {
    expect(await api("/api/library?kind=music", { token })).toMatchObject({
      status: 422,
      body: { detail: expect.stringContaining("kind must be one of: voice, video") },
    });
    expect(await api("/api/library?sort=name", { token })).toMatchObject({
      status: 422,
      body: { detail: "sort must be one of: -date, date, -size, size" },
    });
    expect((await api("/api/library?page=0", { token })).status).toBe(422);
    expect((await api("/api/library?page=two", { token })).status).toBe(422);
    expect((await api("/api/library?per_page=1000", { token })).status).toBe(422);
  });

  it("without a session: 401", async () => {
    expect((await api("/api/library")).status).toBe(401);
    expect((await api("/api/library/usage")).status).toBe(401);
  });
});

describe("GET, PATCH and DELETE /api/library/{id}", () => {
  it("another person's file is 404 to every call, and stays as it was", async () => {
    const owner = await newUser("lib-owner");
    const other = await newUser("lib-other");
    const id = (await save(owner.token, PNG_BYTES, "mine.png", "photo")).body.id;
    expect(await api(`/api/library/${id}`, { token: other.token })).toMatchObject({
      status: 404,
      body: { detail: "File not found" },
    });
    expect(
      (await api(`/api/library/${id}`, { token: other.token, method: "PATCH", json: { name: "stolen" } })).status,
    ).toBe(404);
    expect((await api(`/api/library/${id}`, { token: other.token, method: "DELETE" })).status).toBe(404);
    expect((await api(`/media/${id}`, { token: other.token })).status).toBe(404);
    expect((await api(`/media/${id}/thumbnail`, { token: other.token })).status).toBe(404);
    expect((await api("/api/library", { token: other.token })).body.total).toBe(0);
    expect((await api(`/api/library/${id}`, { token: owner.token })).body.name).toBe("mine.png");
    expect((await api("/api/library/no-such-id", { token: owner.token })).status).toBe(404);
  });

  it("rename: trimmed, the kind's extension kept; blank is 422; a taken name is 409", async () => {
    const { token } = await newUser("lib-rename");
    const id = (await save(token, PNG_BYTES, "first.png", "photo")).body.id;
    await save(token, PNG_BYTES, "second.png", "photo");
    const memoId = (await save(token, m4aBytes(), "memo.m4a", "memo")).body.id;

    const renamed = await api(`/api/library/${id}`, { token, method: "PATCH", json: { name: "  Beach day  " } });
    expect(renamed).toMatchObject({ status: 200, body: { id, name: "Beach day.png", kind: "photo" } });
    expect((await api(`/api/library/${id}`, { token, method: "PATCH", json: { name: "Beach.PNG" } })).body.name).toBe(
      "Beach.png",
    );
    expect(
      (await api(`/api/library/${memoId}`, { token, method: "PATCH", json: { name: "Groceries" } })).body.name,
    ).toBe("Groceries.m4a");
    for (const name of ["", "   ", ".png"]) {
      expect(await api(`/api/library/${id}`, { token, method: "PATCH", json: { name } })).toMatchObject({
        status: 422,
        body: { detail: "Name is required" },
      });
    }
    expect((await api(`/api/library/${id}`, { token, method: "PATCH", json: {} })).status).toBe(422);
    expect((await api(`/api/library/${id}`, { token, method: "PATCH", json: { name: "a/b" } })).status).toBe(422);
    expect(await api(`/api/library/${id}`, { token, method: "PATCH", json: { name: "second" } })).toMatchObject({
      status: 409,
    });
    expect((await api(`/api/library/${id}`, { token })).body.name).toBe("Beach.png");
    expect((await api(`/api/library/${id}`, { token, method: "PUT", json: { name: "x" } })).status).toBe(405);
  });

  it("delete: 200, detached from projects, its URL then answers 404, a second delete 404", async () => {
    const { token } = await newUser("lib-delete");
    const id = (await save(token, PNG_BYTES, "attach me.png", "photo")).body.id;
    const project = await api("/api/project/create", { token, json: { title: "Trip", image_file: id } });
    expect(project.status).toBe(201);
    expect(project.body.image_file).toBe("attach me.png");
    expect((await api(`/media/${id}`, { token })).status).toBe(200);

    expect(await api(`/api/library/${id}`, { token, method: "DELETE" })).toMatchObject({
      status: 200,
      body: { ok: true, id },
    });
    expect((await api(`/media/${id}`, { token })).status).toBe(404);
    expect((await api(`/api/library/${id}`, { token })).status).toBe(404);
    expect((await api(`/api/library/${id}`, { token, method: "DELETE" })).status).toBe(404);
    expect((await api(`/api/project/${project.body.id}`, { token })).body.image_file).toBeNull();
  });
});

describe("GET /media/{id}/thumbnail", () => {
  it("a small WebP of the person's image, nosniff, cached; 404 for what is not an image", async () => {
    const { token } = await newUser("lib-thumb");
    const id = (await save(token, await realPng(1200, 600), "wide.png", "photo")).body.id;
    const thumb = await fetch(`${baseUrl()}/media/${id}/thumbnail`, { headers: { Authorization: `Bearer ${token}` } });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/webp");
    expect(thumb.headers.get("x-content-type-options")).toBe("nosniff");
    expect(thumb.headers.get("cache-control")).toContain("private");
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 320, height: 160 });
    const again = await api(`/media/${id}/thumbnail`, {
      token,
      headers: { "If-None-Match": thumb.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
    const memoId = (await save(token, m4aBytes(), "memo.m4a", "memo")).body.id;
    expect((await api(`/media/${memoId}/thumbnail`, { token })).status).toBe(404);
  });
});

describe("GET /api/library/usage", () => {
  it("bytes used in all and by kind, against the quota", async () => {
    const { token } = await newUser("lib-usage");
    expect((await api("/api/library/usage", { token })).body).toEqual({
      used_bytes: 0,
      quota_bytes: 1024 * 1024 * 1024,
      by_kind: { voice: 0, video: 0, speech: 0, image: 0, aivideo: 0, sketch: 0, photo: 0, clip: 0, memo: 0 },
      text_bytes: 0,
    });
    await save(token, PNG_BYTES, "a.png", "photo");
    await save(token, m4aBytes(100), "b.m4a", "memo");
    const { body } = await api("/api/library/usage", { token });
    expect(body.by_kind.photo).toBe(PNG_BYTES.length);
    expect(body.by_kind.memo).toBe(m4aBytes(100).length);
    expect(body.used_bytes).toBe(PNG_BYTES.length + m4aBytes(100).length);
  });
});

describe("USER_STORAGE_QUOTA_MB", () => {
  let server: RunningServer;
  let token: string;
  const MiB = 1024 * 1024;
  const call = (pathname: string, init: RequestInit = {}) =>
    fetch(`${server.url}${pathname}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });
  /** Every stored object and temporary file under the server's media folder. */
  const storedFiles = () =>
    fs.existsSync(path.join(server.dataDir, "media"))
      ? fs
          .readdirSync(path.join(server.dataDir, "media"), { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => entry.name)
      : [];
  /** A PNG header followed by filler: `size` bytes in all. */
  const pngOfSize = (size: number) => Buffer.concat([PNG_BYTES, Buffer.alloc(size - PNG_BYTES.length, 1)]);
  const used = async () => (await (await call("/api/library/usage")).json()).used_bytes as number;

  beforeAll(async () => {
    server = await startTestServer({ USER_STORAGE_QUOTA_MB: "1" });
    const email = `quota-${Date.now()}@example.com`;
    const json = { "Content-Type": "application/json" };
    await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      body: JSON.stringify({ email, password: PASSWORD }),
      headers: json,
    });
    token = (
      await (
        await fetch(`${server.url}/api/auth/login`, {
          method: "POST",
          body: JSON.stringify({ email, password: PASSWORD }),
          headers: json,
        })
      ).json()
    ).access_token;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("usage says the quota", async () => {
    expect((await (await call("/api/library/usage")).json()).quota_bytes).toBe(MiB);
  });

  it("a 3 MB upload with Content-Length is refused with 413 and a detail; nothing kept", async () => {
    const before = storedFiles().length;
    for (const [pathname, bytes, name] of [
      ["/api/library/upload", pngOfSize(3 * MiB), "big.png"],
      ["/api/voice/upload", Buffer.concat([mp3WithId3(), Buffer.alloc(3 * MiB)]), "big.mp3"],
      ["/api/videos/upload", mp4Bytes(3 * MiB), "big.mp4"],
    ] as const) {
      // Read as soon as it comes: the server answers before the body has arrived and then closes (sendForAnswer).
      const response = await sendForAnswer(`${server.url}${pathname}`, {
        body: saveForm(bytes, name, "photo"),
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(413);
      expect(JSON.parse(response.text).detail).toBe(
        "Not enough storage left: this would pass your 1 MiB quota. Delete files in your library to make room.",
      );
    }
    expect(storedFiles().length).toBe(before);
    expect(await used()).toBe(0);
  });

  it("a 3 MB upload streamed without Content-Length (chunked) is refused during the stream; nothing kept", async () => {
    const before = storedFiles().length;
    const boundary = "----quota-stream";
    async function* body() {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nphoto\r\n`);
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="stream.png"\r\n\r\n`);
      yield PNG_BYTES;
      for (let i = 0; i < 48; i++) yield Buffer.alloc(64 * 1024, 3);
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    }
    const response = await call("/api/library/upload", {
      method: "POST",
      body: Readable.toWeb(Readable.from(body())) as unknown as BodyInit,
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await response.json()).detail).toMatch(/^Not enough storage left/);
    await expect.poll(() => storedFiles().length, { timeout: 5000 }).toBe(before);
    expect(await used()).toBe(0);
  });

  it("uploads fit until the quota is reached; then generations are refused with 413 before and while storing", async () => {
    // Fill all but 100 bytes: the generated speech (a WAV of kilobytes) does not fit.
    const first = await call("/api/library/upload", {
      method: "POST",
      body: saveForm(pngOfSize(MiB - 100), "almost full.png", "photo"),
    });
    expect(first.status).toBe(201);
    const spoken = await call("/api/voice/generate", {
      method: "POST",
      body: JSON.stringify({ text: "This will not fit" }),
      headers: { "Content-Type": "application/json" },
    });
    expect(spoken.status).toBe(413);
    expect((await spoken.json()).detail).toMatch(/^Not enough storage left/);
    // Exactly full: refused before the provider is asked, for every generation.
    const last = await call("/api/library/upload", {
      method: "POST",
      body: saveForm(pngOfSize(100), "last bytes.png", "photo"),
    });
    expect(last.status).toBe(201);
    expect(await used()).toBe(MiB);
    const again = await call("/api/voice/generate", {
      method: "POST",
      body: JSON.stringify({ text: "Nor this" }),
      headers: { "Content-Type": "application/json" },
    });
    expect(again.status).toBe(413);
    const job = await call("/api/aivideo", {
      method: "POST",
      body: JSON.stringify({ prompt: "a sunrise" }),
      headers: { "Content-Type": "application/json" },
    });
    expect(job.status).toBe(413);
    const small = await call("/api/library/upload", { method: "POST", body: saveForm(PNG_BYTES, "tiny.png", "photo") });
    expect(small.status).toBe(413);
    const library = await (await call("/api/library")).json();
    expect(library.files.map((file: { name: string }) => file.name).sort()).toEqual([
      "almost full.png",
      "last bytes.png",
    ]);
    // Deleting makes room again.
    expect((await call(`/api/library/${library.files[0].id}`, { method: "DELETE" })).status).toBe(200);
    expect(
      (await call("/api/library/upload", { method: "POST", body: saveForm(PNG_BYTES, "tiny.png", "photo") })).status,
    ).toBe(201);
  });
});

describe("provenance of what the project editor's generators make", () => {
  it("names the project as the source; another person's project is 404 and nothing is made", async () => {
    const owner = await newUser("prov-project");
    const stranger = await newUser("prov-stranger");
    const project = await api("/api/project/create", { token: owner.token, json: { title: "Radio play" } });
    expect(project.status).toBe(201);
    const projectId = project.body.id;

    const spoken = await api("/api/creative-tools/voice/generate", {
      token: owner.token,
      json: { text: "Scene one", project_id: projectId },
    });
    expect(spoken.status).toBe(201);
    const file = await api(`/api/library/${spoken.body.media_id}`, { token: owner.token });
    expect(file.body.provenance).toMatchObject({ prompt: "Scene one", source: { type: "project", id: projectId } });

    // Without a project the source stays empty.
    const plain = await api("/api/creative-tools/voice/generate", { token: owner.token, json: { text: "Scene two" } });
    expect(
      (await api(`/api/library/${plain.body.media_id}`, { token: owner.token })).body.provenance.source ?? null,
    ).toBeNull();

    const refused = await api("/api/creative-tools/voice/generate", {
      token: stranger.token,
      json: { text: "Scene three", project_id: projectId },
    });
    expect(refused.status).toBe(404);
    expect(refused.body.detail).toBe("Project not found");
    expect((await api("/api/library", { token: stranger.token })).body.total).toBe(0);
    const badId = await api("/api/creative-tools/voice/generate", {
      token: owner.token,
      json: { text: "Scene four", project_id: 42 },
    });
    expect(badId.status).toBe(422);
  });
});
