import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3rver } from "../support/s3";
import { sendForAnswer } from "../support/early-answer";
import { startTestServer, type RunningServer } from "../support/server";
import { mp3Frames, mp4Bytes } from "../support/media";
import { readZip, zipFiles, type ZipEntry } from "../support/zip";
import { api, baseUrl, newUser, PASSWORD, signInWithForm } from "../support/api";

/**
 * Decision 0019: GET /api/content?q=, the dashboard's search (plain HTML here; the
 * browser test is tests/e2e/search-export.spec.ts), GET /api/project/{id}/export and
 * GET /api/account/export (zips read back with tests/support/zip.ts), ownership, odd input, the S3
 * store, and the server's peak memory during a 200 MB export.
 */
type User = Awaited<ReturnType<typeof newUser>>;

async function create(user: User, title: string, body = "") {
  const response = await api("/api/content", { token: user.token, json: { title, body } });
  expect(response.status).toBe(201);
  return response.body as { id: string; title: string; body: string; pinned: boolean; updated_at: string };
}

const titlesOf = (items: { title: string }[]) => items.map((item) => item.title);

async function search(user: User, q: string, extra = "") {
  return api(`/api/content?q=${encodeURIComponent(q)}${extra}`, { token: user.token });
}

function fileForm(bytes: Buffer, filename: string) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), filename);
  return form;
}

async function download(url: string, init: RequestInit = {}) {
  const response = await fetch(url, { redirect: "manual", ...init });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** Every name a zip holds is a plain relative path: no "..", no absolute path, no backslash, no control character. */
function expectSafeNames(entries: ZipEntry[]) {
  for (const { name } of entries) {
    expect(name, name).not.toMatch(/(^|\/)\.\.?(\/|$)|^\/|\\|[\u0000-\u001f]|^[A-Za-z]:/);
    for (const segment of name.split("/")) expect(segment.length, name).toBeGreaterThan(0);
  }
}

describe("GET /api/content?q=", () => {
  let alice: User;
  let bob: User;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([newUser("search-a"), newUser("search-b")]);
    await create(alice, "Robots at dawn", "A story about machines waking up.");
    await create(alice, "Garden notes", "The robotic mower hums; tomatoes ripen.");
    await create(alice, "Shopping list", "milk, eggs, bread");
    await create(bob, "Bob's robots", "secret saffron recipe");
  });

  it("matches title and body, every word, each also as a prefix; the answer keeps the list's shape", async () => {
    const robots = await search(alice, "robots");
    expect(robots.status).toBe(200);
    expect(titlesOf(robots.body)).toEqual(["Robots at dawn"]);
    expect(Object.keys(robots.body[0]).sort()).toEqual(["body", "id", "pinned", "title", "updated_at"]);
    expect(robots.headers.get("x-total-count")).toBe("1");
    expect(robots.headers.get("cache-control")).toBe("no-store");

    const prefix = await search(alice, "robo");
    // The list's order: most recently updated first.
    expect(titlesOf(prefix.body)).toEqual(["Garden notes", "Robots at dawn"]);
    expect(prefix.headers.get("x-total-count")).toBe("2");
    expect(titlesOf((await search(alice, "tomato")).body)).toEqual(["Garden notes"]);
    expect(titlesOf((await search(alice, "MILK Bread")).body)).toEqual(["Shopping list"]);
    expect(titlesOf((await search(alice, "robo milk")).body)).toEqual([]);
    // Paging through matches.
    const firstPage = await search(alice, "robo", "&limit=1");
    const secondPage = await search(alice, "robo", "&limit=1&offset=1");
    expect([...titlesOf(firstPage.body), ...titlesOf(secondPage.body)]).toEqual(titlesOf(prefix.body));
    // Counted only when the page tells it (decision 0077): a full page of one does not.
    expect(firstPage.headers.get("x-total-count")).toBeNull();
    expect((await search(alice, "robo", "&limit=5")).headers.get("x-total-count")).toBe("2");
  });

  it("never matches another person's content", async () => {
    expect(titlesOf((await search(alice, "saffron")).body)).toEqual([]);
    expect((await search(alice, "secret")).headers.get("x-total-count")).toBe("0");
    expect(titlesOf((await search(bob, "robots")).body)).toEqual(["Bob's robots"]);
    expect(titlesOf((await search(bob, "tomato")).body)).toEqual([]);
  });

  it("odd input never fails: syntax characters, quotes, only punctuation; too long is a 422", async () => {
    const odd = [
      '"',
      "'",
      '"unbalanced',
      "it's",
      "NEAR(a b)",
      "AND OR NOT",
      "title:robots",
      "^robo",
      "*",
      "-x",
      "a*b",
      "\\",
      "!!!",
      "()",
      ":*",
      "&|!",
      "<->",
      "%",
      "%00",
      "😀",
      "x".repeat(500),
    ];
    for (const q of odd) {
      const response = await search(alice, q);
      expect(response.status, JSON.stringify(q)).toBe(200);
      expect(Array.isArray(response.body), JSON.stringify(q)).toBe(true);
    }
    expect(titlesOf((await search(alice, "title:robots")).body)).toEqual([]);
    expect(titlesOf((await search(alice, '"robots"')).body)).toEqual(["Robots at dawn"]);
    expect((await search(alice, "!!!")).body).toEqual([]);
    const tooLong = await search(alice, "x".repeat(501));
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.detail).toBe("q must be at most 500 characters");
  });

  it("without q (or with a blank one) answers exactly as before", async () => {
    const plain = await api("/api/content", { token: alice.token });
    expect(plain.body).toHaveLength(3);
    expect(plain.headers.get("x-total-count")).toBe("3");
    for (const path of ["/api/content?q=", "/api/content?q=%20%20"]) {
      const blank = await api(path, { token: alice.token });
      expect(blank.body, path).toEqual(plain.body);
      expect(blank.headers.get("x-total-count")).toBe("3");
    }
    expect((await api("/api/content?q=robo", {})).status).toBe(401);
  });

  it("the dashboard's search: a GET form, the matches in the list, a clear empty state and a way back", async () => {
    const cookie = await signInWithForm(alice.email);
    const page = async (path: string) => (await fetch(baseUrl() + path, { headers: { Cookie: cookie } })).text();
    const plain = await page("/dashboard");
    expect(plain).toMatch(
      /<form[^>]*method="get"[^>]*action="\/dashboard(#content)?"|<form[^>]*action="\/dashboard(#content)?"[^>]*method="get"/,
    );
    expect(plain).toMatch(/<input[^>]*name="q"/);
    expect(plain).toContain("Export my data");
    expect(plain).toContain('href="/api/account/export"');

    const found = await page("/dashboard?q=robo");
    expect(found).toContain("Robots at dawn");
    expect(found).toContain("Garden notes");
    expect(found).not.toContain("Shopping list<");
    expect(found).toMatch(/<input[^>]*name="q"[^>]*value="robo"|<input[^>]*value="robo"[^>]*name="q"/);
    expect(found).toContain('href="/dashboard"');

    const none = await page(`/dashboard?q=${encodeURIComponent("<b>zebra</b>")}`);
    expect(none).toContain("No results for “&lt;b&gt;zebra&lt;/b&gt;”");
    expect(none).not.toContain("<b>zebra</b>");
    expect(none).toContain("Clear search");
    // A query of only punctuation, or too long, is an empty result, not an error page.
    expect(await page(`/dashboard?q=${encodeURIComponent("!!!")}`)).toContain("No results for");
    const long = await fetch(`${baseUrl()}/dashboard?q=${"x".repeat(600)}`, { headers: { Cookie: cookie } });
    expect(long.status).toBe(200);
  });
});

describe("exports", () => {
  let alice: User;
  let bob: User;
  let projectId: string;
  let speech: { media_id: string; filename: string };
  const voice = mp3Frames(40);
  const video = mp4Bytes(300_000);

  beforeAll(async () => {
    [alice, bob] = await Promise.all([newUser("export-a"), newUser("export-b")]);
    const uploadedVoice = await api("/api/voice/upload", { raw: fileForm(voice, "take one.mp3"), token: alice.token });
    expect(uploadedVoice.status).toBe(201);
    const uploadedVideo = await api("/api/videos/upload", { raw: fileForm(video, "trip.mp4"), token: alice.token });
    expect(uploadedVideo.status).toBe(201);
    const project = await api("/api/project/create", {
      token: alice.token,
      json: {
        title: "../../etc/Launch: <film>",
        description: "Our film",
        voice_file: uploadedVoice.body.filename,
        video_file: uploadedVideo.body.filename,
        music_file: "demo2.mp3",
      },
    });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    const spoken = await api("/api/voice/generate", { token: alice.token, json: { text: "Hello from the export" } });
    expect(spoken.status).toBe(201);
    speech = spoken.body;
    await create(alice, "Notes", "first");
    await create(alice, "notes", "second, same name but for case");
    await create(alice, "../../../evil\\name", "body of evil");
    await create(alice, "Empty");
  });

  it("a project: project.json and the attached files, streamed as an attachment (bearer token)", async () => {
    const { response, bytes } = await download(`${baseUrl()}/api/project/${projectId}/export`, {
      headers: { Authorization: `Bearer ${alice.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="[^"/\\]+\.zip"; filename\*=UTF-8''.+\.zip$/,
    );
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("content-encoding")).toBeNull();

    const entries = readZip(bytes);
    expectSafeNames(entries);
    const files = new Map(entries.map((entry) => [entry.name, entry]));
    expect([...files.keys()].sort()).toEqual(["project.json", "video/trip.mov", "voice/take one.mp3"]);
    expect(files.get("voice/take one.mp3")!.data.equals(voice)).toBe(true);
    expect(files.get("video/trip.mov")!.data.equals(video)).toBe(true);
    // Already-compressed media is stored as is; JSON is deflated.
    expect(files.get("video/trip.mov")!.method).toBe(0);
    expect(files.get("voice/take one.mp3")!.method).toBe(0);
    expect(files.get("project.json")!.method).toBe(8);

    const document = JSON.parse(files.get("project.json")!.data.toString("utf8"));
    expect(document).toMatchObject({
      format: "creative-ai-studio/project",
      version: 1,
      project: {
        id: projectId,
        title: "../../etc/Launch: <film>",
        description: "Our film",
        voice_file: "take one.mp3",
        video_file: "trip.mov",
        music_file: "demo2.mp3",
      },
      music: { id: "demo2", title: "Deep Abstract Ambient" },
      missing: [],
    });
    expect(document.media.map((m: { slot: string; path: string; size: number }) => [m.slot, m.path, m.size])).toEqual([
      ["voice", "voice/take one.mp3", voice.length],
      ["video", "video/trip.mov", video.length],
    ]);
  });

  it("the session cookie works as well (the editor's plain download link)", async () => {
    const cookie = await signInWithForm(alice.email);
    const project = await download(`${baseUrl()}/api/project/${projectId}/export`, { headers: { Cookie: cookie } });
    expect(project.response.status).toBe(200);
    expect(zipFiles(project.bytes).has("project.json")).toBe(true);
    const account = await download(`${baseUrl()}/api/account/export`, { headers: { Cookie: cookie } });
    expect(account.response.status).toBe(200);
    expect(zipFiles(account.bytes).has("manifest.json")).toBe(true);
  });

  it("another person's project, an unknown one, or nobody: 404 / 401, never a zip", async () => {
    for (const id of [projectId, "no-such-project", "new"]) {
      const other = await api(`/api/project/${id}/export`, { token: bob.token });
      expect(other.status, id).toBe(404);
      expect(other.body).toEqual({ detail: "Project not found" });
    }
    expect((await api(`/api/project/${projectId}/export`)).status).toBe(401);
    expect((await api("/api/account/export")).status).toBe(401);
    expect((await api(`/api/project/${projectId}/export`, { token: alice.token, method: "POST" })).status).toBe(405);
  });

  it("the account: content as Markdown, projects as JSON, every file, and a manifest listing all of it", async () => {
    const { response, bytes } = await download(`${baseUrl()}/api/account/export`, {
      headers: { Authorization: `Bearer ${alice.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="creative-ai-studio-export-\d{4}-\d{2}-\d{2}\.zip"/,
    );
    const entries = readZip(bytes);
    expectSafeNames(entries);
    const files = new Map(entries.map((entry) => [entry.name, entry]));
    const manifest = JSON.parse(files.get("manifest.json")!.data.toString("utf8"));
    expect(manifest).toMatchObject({
      format: "creative-ai-studio/account",
      version: 1,
      account: { id: alice.id, email: alice.email },
      missing: [],
    });

    // Content: one Markdown file each, names made safe and unique without regard to case.
    expect(manifest.content.map((c: { title: string; path: string }) => [c.title, c.path])).toEqual([
      ["Notes", "content/Notes.md"],
      ["notes", "content/notes (2).md"],
      ["../../../evil\\name", "content/_.._.._evil_name.md"],
      ["Empty", "content/Empty.md"],
    ]);
    expect(files.get("content/Notes.md")!.data.toString()).toBe("# Notes\n\nfirst\n");
    expect(files.get("content/notes (2).md")!.data.toString()).toBe("# notes\n\nsecond, same name but for case\n");
    expect(files.get("content/Empty.md")!.data.toString()).toBe("# Empty\n");
    expect(manifest.content[0]).toEqual({
      id: expect.any(String),
      title: "Notes",
      pinned: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      path: "content/Notes.md",
    });

    // The library: every file, uploads and generations, with its bytes and (for generated ones) provenance.
    expect(manifest.library.map((f: { kind: string; name: string; path: string }) => [f.kind, f.name, f.path])).toEqual(
      [
        ["speech", speech.filename, `library/speech/${speech.filename}`],
        ["video", "trip.mov", "library/video/trip.mov"],
        ["voice", "take one.mp3", "library/voice/take one.mp3"],
      ],
    );
    expect(files.get("library/voice/take one.mp3")!.data.equals(voice)).toBe(true);
    expect(files.get("library/video/trip.mov")!.data.equals(video)).toBe(true);
    const spoken = manifest.library[0];
    expect(spoken).toMatchObject({
      id: speech.media_id,
      content_type: "audio/wav",
      provenance: { prompt: "Hello from the export", provider: expect.any(String) },
    });
    expect(spoken.duration_ms).toBeGreaterThan(0);
    expect(manifest.library[2]).toMatchObject({
      kind: "voice",
      size: voice.length,
      content_type: "audio/mpeg",
      provenance: null,
    });
    const wav = files.get(`library/speech/${speech.filename}`)!;
    expect(wav.data.subarray(0, 4).toString("latin1")).toBe("RIFF");
    expect(wav.size).toBe(spoken.size);
    // Raw audio is deflated; MP3 and video are stored as they are.
    expect(wav.method).toBe(8);
    expect(files.get("library/voice/take one.mp3")!.method).toBe(0);

    // Projects: JSON naming their files by path in this zip.
    expect(manifest.projects).toEqual([
      { id: projectId, title: "../../etc/Launch: <film>", path: "projects/_.._etc_Launch_ _film_.json" },
    ]);
    const project = JSON.parse(files.get("projects/_.._etc_Launch_ _film_.json")!.data.toString());
    expect(project).toMatchObject({ id: projectId, title: "../../etc/Launch: <film>", music: { id: "demo2" } });
    expect(project.media).toEqual([
      {
        slot: "voice",
        id: expect.any(String),
        name: "take one.mp3",
        kind: "voice",
        path: "library/voice/take one.mp3",
      },
      { slot: "video", id: expect.any(String), name: "trip.mov", kind: "video", path: "library/video/trip.mov" },
    ]);

    // Everything listed is in the zip, and the zip holds nothing unlisted.
    const listed = [
      "manifest.json",
      ...manifest.content.map((c: { path: string }) => c.path),
      ...manifest.projects.map((p: { path: string }) => p.path),
      ...manifest.library.map((f: { path: string }) => f.path),
    ];
    expect([...files.keys()].sort()).toEqual(listed.sort());
  });

  it("another person's export holds none of it", async () => {
    const { bytes } = await download(`${baseUrl()}/api/account/export`, {
      headers: { Authorization: `Bearer ${bob.token}` },
    });
    const files = zipFiles(bytes);
    expect([...files.keys()]).toEqual(["manifest.json"]);
    const manifest = JSON.parse(files.get("manifest.json")!.data.toString());
    expect(manifest).toMatchObject({ account: { id: bob.id }, content: [], projects: [], library: [] });
  });
});

async function account(url: string, prefix: string) {
  const email = `${prefix}-${Date.now()}@example.com`;
  const json = JSON.stringify({ email, password: PASSWORD });
  const headers = { "Content-Type": "application/json" };
  expect((await fetch(`${url}/api/auth/register`, { method: "POST", headers, body: json })).status).toBe(201);
  return (await (await fetch(`${url}/api/auth/login`, { method: "POST", headers, body: json })).json())
    .access_token as string;
}

/** The server's peak resident memory so far (Linux: VmHWM), in bytes. */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) * 1024;
}

describe("exports from an S3 store", () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let server: RunningServer;

  beforeAll(async () => {
    s3 = await startS3rver("studio-export", "exports");
    server = await startTestServer({ ...s3.env });
  });
  afterAll(async () => {
    await server?.stop();
    await s3?.stop();
  });

  it("reads the files from the bucket (project and account exports)", async () => {
    const token = await account(server.url, "s3-export");
    const auth = { Authorization: `Bearer ${token}` };
    const voice = mp3Frames(25);
    const uploaded = await fetch(`${server.url}/api/voice/upload`, {
      method: "POST",
      headers: auth,
      body: fileForm(voice, "bucket take.mp3"),
    });
    expect(uploaded.status).toBe(201);
    const created = await fetch(`${server.url}/api/project/create`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "On S3", voice_file: "bucket take.mp3" }),
    });
    const project = await created.json();
    const projectZip = await download(`${server.url}/api/project/${project.id}/export`, { headers: auth });
    expect(projectZip.response.status).toBe(200);
    expect(zipFiles(projectZip.bytes).get("voice/bucket take.mp3")!.data.equals(voice)).toBe(true);
    const accountZip = await download(`${server.url}/api/account/export`, { headers: auth });
    const files = zipFiles(accountZip.bytes);
    expect(files.get("library/voice/bucket take.mp3")!.data.equals(voice)).toBe(true);
    expect(JSON.parse(files.get("manifest.json")!.data.toString()).missing).toEqual([]);
  });

  it("a file whose bytes are gone is an empty entry listed under missing; the zip still completes", async () => {
    const token = await account(server.url, "s3-missing");
    const auth = { Authorization: `Bearer ${token}` };
    const before = new Set(await s3.keys("exports/objects/"));
    expect(
      (
        await fetch(`${server.url}/api/voice/upload`, {
          method: "POST",
          headers: auth,
          body: fileForm(mp3Frames(5), "gone.mp3"),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await fetch(`${server.url}/api/voice/upload`, {
          method: "POST",
          headers: auth,
          body: fileForm(mp3Frames(6), "kept.mp3"),
        })
      ).status,
    ).toBe(201);
    const added = (await s3.keys("exports/objects/")).filter((key) => !before.has(key));
    expect(added).toHaveLength(2);
    // Which object is "gone.mp3": the library lists ids in the manifest.
    const first = zipFiles((await download(`${server.url}/api/account/export`, { headers: auth })).bytes);
    const goneId = JSON.parse(first.get("manifest.json")!.data.toString()).library.find(
      (f: { name: string }) => f.name === "gone.mp3",
    ).id;
    const { DeleteObjectCommand } = await import("@aws-sdk/client-s3");
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: `exports/objects/${goneId}` }));

    const files = zipFiles((await download(`${server.url}/api/account/export`, { headers: auth })).bytes);
    expect(JSON.parse(files.get("manifest.json")!.data.toString()).missing).toEqual(["library/voice/gone.mp3"]);
    expect(files.get("library/voice/gone.mp3")!.size).toBe(0);
    expect(files.get("library/voice/kept.mp3")!.data.equals(mp3Frames(6))).toBe(true);
  });
});

describe("memory while a large library is exported", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("exporting 200 MB of files raises the server's peak memory by far less than the files' size (it streams)", async () => {
    const token = await account(server.url, "large");
    const auth = { Authorization: `Bearer ${token}` };
    const FILES = 8;
    const SIZE = 25 * 1024 * 1024;
    for (let i = 0; i < FILES; i++) {
      const bytes = mp4Bytes(SIZE);
      bytes.writeUInt32BE(i, bytes.length - 4);
      // By node:http: should the server refuse an upload, its answer says why (fetch only said EPIPE once).
      const uploaded = await sendForAnswer(`${server.url}/api/videos/upload`, {
        headers: auth,
        body: fileForm(bytes, `big ${i}.mp4`),
      });
      expect(uploaded.status, uploaded.text).toBe(201);
    }
    // A fresh process on the same data: the uploads' memory (kept by the allocator once used) would
    // otherwise hide what the export itself takes.
    await server.stop();
    server = await startTestServer({ DATA_DIR: server.dataDir });
    const pid = server.child.pid!;
    const before = peakRss(pid);
    // Read the zip as it comes, keeping only a count and the last bytes (the test holds no 200 MB either).
    const response = await fetch(`${server.url}/api/account/export`, { headers: auth });
    expect(response.status).toBe(200);
    let total = 0;
    let tail = Buffer.alloc(0);
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      total += chunk.byteLength;
      tail = Buffer.concat([tail, chunk]).subarray(-65_536);
    }
    const after = peakRss(pid);
    expect(total).toBeGreaterThan(FILES * SIZE);
    expect(tail.includes(Buffer.from("manifest.json"))).toBe(true);
    console.log(
      `[search-export] ${(total / 2 ** 20).toFixed(0)} MB zip (disk store); server peak RSS ${(before / 2 ** 20).toFixed(0)} -> ${(after / 2 ** 20).toFixed(0)} MB`,
    );
    expect(after - before, "peak RSS growth during the export").toBeLessThan(100 * 1024 * 1024);
  }, 120_000);

  it("a download stopped halfway ends the export; the next one is whole", async () => {
    const token = await account(server.url, "cancel");
    const auth = { Authorization: `Bearer ${token}` };
    for (let i = 0; i < 3; i++) {
      const uploaded = await fetch(`${server.url}/api/videos/upload`, {
        method: "POST",
        headers: auth,
        body: fileForm(mp4Bytes(8 * 1024 * 1024), `part ${i}.mp4`),
      });
      expect(uploaded.status).toBe(201);
    }
    for (const stopAt of [1, 9, 17].map((mib) => mib * 1024 * 1024)) {
      const controller = new AbortController();
      const response = await fetch(`${server.url}/api/account/export`, { headers: auth, signal: controller.signal });
      let received = 0;
      await (async () => {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          received += chunk.byteLength;
          if (received >= stopAt) controller.abort();
        }
      })().catch(() => undefined);
      expect(received).toBeGreaterThanOrEqual(stopAt);
    }
    const whole = await download(`${server.url}/api/account/export`, { headers: auth });
    const files = readZip(whole.bytes);
    expect(files.filter((file) => file.name.startsWith("library/video/")).map((file) => file.size)).toEqual(
      [0, 1, 2].map(() => mp4Bytes(8 * 1024 * 1024).length),
    );
  });
});
