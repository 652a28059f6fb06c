import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { mp3WithId3, mp4Bytes, movBytes, PNG_BYTES, riffBytes, webmBytes } from "../support/media";
import { api, baseUrl, newUser, PASSWORD, signInWithForm, waitForVideoJob, screenPost } from "../support/api";

// The test server's secret (tests/support/server.ts): lets a test sign an expired link the way the server would.
const SECRET = "test-session-secret-that-is-long-enough-0123456789";

function fileForm(bytes: Buffer, filename: string) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), filename);
  return form;
}
const upload = (token: string, bytes: Buffer, filename: string) =>
  api("/api/videos/upload", { raw: fileForm(bytes, filename), token });
const videoPath = (name: string) => `/api/videos/${encodeURIComponent(name)}`;

describe("POST /api/videos/upload and GET /api/videos", () => {
  it("stores any video container under its name with .mov (docs/api.md#entities-and-payloads) and lists {filename, size, updated_at}", async () => {
    const { token } = await newUser("video");
    const mp4 = mp4Bytes(2000);
    const uploaded = await upload(token, mp4, "Holiday.mp4");
    expect(uploaded).toMatchObject({ status: 201, body: { filename: "Holiday.mov", size: mp4.length } });
    expect((await upload(token, webmBytes(), "screen.webm")).body.filename).toBe("screen.mov");
    expect((await upload(token, movBytes(), "Trip.MOV")).body.filename).toBe("Trip.mov");
    expect((await upload(token, riffBytes("AVI "), "old.avi")).body.filename).toBe("old.mov");

    const { status, body, headers } = await api("/api/videos", { token });
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("no-store");
    expect(body.map((video: { filename: string }) => video.filename)).toEqual([
      "old.mov",
      "Trip.mov",
      "screen.mov",
      "Holiday.mov",
    ]);
    expect(body[3]).toEqual({
      filename: "Holiday.mov",
      size: mp4.length,
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it("a name the user already has (after .mov is given) is 409 and nothing is kept", async () => {
    const { token } = await newUser("video");
    const first = mp4Bytes(1000);
    expect((await upload(token, first, "Holiday.mp4")).status).toBe(201);
    for (const name of ["Holiday.mov", "Holiday.webm", "Holiday", "Holiday.MOV"]) {
      expect(await upload(token, webmBytes(), name)).toMatchObject({
        status: 409,
        body: { detail: "A file with that name already exists" },
      });
    }
    const { body } = await api("/api/videos", { token });
    expect(body).toEqual([{ filename: "Holiday.mov", size: first.length, updated_at: expect.any(String) }]);
    const kept = await fetch(baseUrl() + videoPath("Holiday.mov"), { headers: { Authorization: `Bearer ${token}` } });
    expect(Buffer.from(await kept.arrayBuffer()).equals(first)).toBe(true);
  });

  it("refuses what is not a video with 415 and keeps nothing", async () => {
    const { token } = await newUser("video");
    for (const bytes of [mp3WithId3(), PNG_BYTES, riffBytes("WAVE"), Buffer.from("<html>not a video</html>")]) {
      expect(await upload(token, bytes, "trick.mp4")).toMatchObject({
        status: 415,
        body: { detail: expect.stringContaining("Unsupported video format") },
      });
    }
    expect((await api("/api/videos", { token })).body).toEqual([]);
  });

  it("needs a session", async () => {
    expect((await api("/api/videos")).status).toBe(401);
    expect((await api("/api/videos/upload", { raw: fileForm(mp4Bytes(), "a.mp4") })).status).toBe(401);
  });
});

describe("GET /api/videos/{name}", () => {
  it("answers the bytes with the sniffed type, nosniff and byte ranges", async () => {
    const { token } = await newUser("video");
    const bytes = mp4Bytes(5000);
    await upload(token, bytes, "seek.mp4");
    const auth = { Authorization: `Bearer ${token}` };
    const full = await fetch(baseUrl() + videoPath("seek.mov"), { headers: auth });
    expect(full.status).toBe(200);
    expect(full.headers.get("content-type")).toBe("video/mp4");
    expect(full.headers.get("x-content-type-options")).toBe("nosniff");
    expect(full.headers.get("accept-ranges")).toBe("bytes");
    expect(full.headers.get("content-disposition")).toBe("inline; filename*=UTF-8''seek.mov");
    expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);
    await upload(token, bytes, "seek (2).mp4");
    const numbered = await fetch(baseUrl() + videoPath("seek (2).mov"), { method: "HEAD", headers: auth });
    expect(numbered.headers.get("content-disposition")).toBe("inline; filename*=UTF-8''seek%20%282%29.mov");
    // A name sent decomposed (NFD) finds the file stored composed (NFC).
    await upload(token, bytes, "Cr\u00e8me.mp4");
    const decomposed = await fetch(baseUrl() + videoPath("Cre\u0300me.mov"), {
      headers: { ...auth, Range: "bytes=0-3" },
    });
    expect(decomposed.status).toBe(206);

    const part = await fetch(baseUrl() + videoPath("seek.mov"), { headers: { ...auth, Range: "bytes=4-11" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 4-11/${bytes.length}`);
    expect(part.headers.get("content-length")).toBe("8");
    expect(await part.text()).toBe("ftypisom");

    const open = await fetch(baseUrl() + videoPath("seek.mov"), {
      headers: { ...auth, Range: `bytes=${bytes.length - 3}-` },
    });
    expect(open.status).toBe(206);
    expect((await open.arrayBuffer()).byteLength).toBe(3);

    const refused = await fetch(baseUrl() + videoPath("seek.mov"), {
      headers: { ...auth, Range: `bytes=${bytes.length}-` },
    });
    expect(refused.status).toBe(416);
    expect(refused.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
    expect(await refused.json()).toEqual({ detail: "Requested range not satisfiable" });

    // If-Range with another version's validator: the whole (current) file, not a range of it.
    const stale = await fetch(baseUrl() + videoPath("seek.mov"), {
      headers: { ...auth, Range: "bytes=0-3", "If-Range": '"old"' },
    });
    expect(stale.status).toBe(200);
  });

  it("is the owner's only", async () => {
    const owner = await newUser("video-owner");
    const other = await newUser("video-other");
    await upload(owner.token, mp4Bytes(), "mine.mp4");
    expect((await api(videoPath("mine.mov"), { token: other.token })).status).toBe(404);
    expect((await api("/api/videos", { token: other.token })).body).toEqual([]);
    expect((await api(videoPath("mine.mov"))).status).toBe(401);
    for (const name of ["..%2F..%2Fstudio.sqlite", "%00.mov", "a%0Ab.mov"]) {
      expect([400, 404]).toContain((await api(`/api/videos/${name}`, { token: owner.token })).status);
    }
  });

  it("static segments win over the file name segment", async () => {
    const { token } = await newUser("video");
    expect(await api("/api/videos/upload", { token })).toMatchObject({ status: 405 });
    expect(await api("/api/videos/rename", { token })).toMatchObject({ status: 405 });
    expect(await api("/api/videos/signed_url", { token })).toMatchObject({
      status: 422,
      body: { detail: "filename is required" },
    });
  });
});

describe("PUT /api/videos/rename and DELETE /api/videos/{name}", () => {
  it("renames with JSON {old_name, new_name}: trimmed, .mov appended", async () => {
    const { token } = await newUser("video");
    await upload(token, mp4Bytes(), "raw.mp4");
    const renamed = await api("/api/videos/rename", {
      method: "PUT",
      token,
      json: { old_name: "raw.mov", new_name: "  Final cut " },
    });
    expect(renamed).toMatchObject({ status: 200, body: { filename: "Final cut.mov", old_name: "raw.mov" } });
    expect((await api(videoPath("Final cut.mov"), { token })).status).toBe(200);
    expect((await api(videoPath("raw.mov"), { token })).status).toBe(404);
  });

  it("old names sent decomposed (NFD) are found; a capitalised .MOV is stored lower case", async () => {
    const { token } = await newUser("video");
    await upload(token, mp4Bytes(), "Ni\u00f1o.mp4");
    const renamed = await api("/api/videos/rename", {
      method: "PUT",
      token,
      json: { old_name: "Nin\u0303o.mov", new_name: "Fiesta.MOV" },
    });
    expect(renamed).toMatchObject({ status: 200, body: { filename: "Fiesta.mov" } });
    await api("/api/videos/rename", { method: "PUT", token, json: { old_name: "Fiesta.mov", new_name: "A\u0301gua" } });
    expect((await api("/api/videos", { token })).body.map((video: { filename: string }) => video.filename)).toEqual([
      "\u00c1gua.mov",
    ]);
    expect(
      (await api(`/api/videos/signed_url?${new URLSearchParams({ filename: "A\u0301gua.mov" })}`, { token })).status,
    ).toBe(200);
    expect((await api(videoPath("A\u0301gua.mov"), { method: "DELETE", token })).status).toBe(200);
    expect((await api("/api/videos", { token })).body).toEqual([]);
  });

  it("refuses blank, unsafe and taken names, unknown files and bad JSON", async () => {
    const { token } = await newUser("video");
    await upload(token, mp4Bytes(), "a.mp4");
    await upload(token, mp4Bytes(), "b.mp4");
    const rename = (json: unknown) => api("/api/videos/rename", { method: "PUT", token, json });
    expect(await rename({ old_name: "a.mov", new_name: " " })).toMatchObject({
      status: 422,
      body: { detail: "Name is required" },
    });
    expect(await rename({ old_name: "a.mov", new_name: "../../b" })).toMatchObject({ status: 422 });
    expect(await rename({ old_name: "a.mov", new_name: "bad\u0000name" })).toMatchObject({ status: 422 });
    expect(await rename({ old_name: "a.mov", new_name: "b" })).toMatchObject({ status: 409 });
    expect(await rename({ old_name: "zzz.mov", new_name: "c" })).toMatchObject({
      status: 404,
      body: { detail: "Video not found" },
    });
    expect(await rename({ old_name: "a.mov" })).toMatchObject({
      status: 422,
      body: { detail: "new_name is required" },
    });
    expect(await rename({ old_name: 5, new_name: "c" })).toMatchObject({ status: 422 });
    expect(
      await api("/api/videos/rename", {
        method: "PUT",
        token,
        raw: "{",
        headers: { "Content-Type": "application/json" },
      }),
    ).toMatchObject({ status: 400 });
  });

  it("deletes; another user can neither rename nor delete", async () => {
    const owner = await newUser("video-owner");
    const other = await newUser("video-other");
    await upload(owner.token, mp4Bytes(), "keep.mp4");
    expect(
      (
        await api("/api/videos/rename", {
          method: "PUT",
          token: other.token,
          json: { old_name: "keep.mov", new_name: "x" },
        })
      ).status,
    ).toBe(404);
    expect((await api(videoPath("keep.mov"), { method: "DELETE", token: other.token })).status).toBe(404);
    expect(await api(videoPath("keep.mov"), { method: "DELETE", token: owner.token })).toMatchObject({
      status: 200,
      body: { ok: true, filename: "keep.mov" },
    });
    expect((await api(videoPath("keep.mov"), { token: owner.token })).status).toBe(404);
    expect((await api(videoPath("keep.mov"), { method: "DELETE", token: owner.token })).status).toBe(404);
  });
});

/** A finished AI video clip of the user's (the local renderer, offline): its media id and URL. */
async function generatedClip(token: string, prompt: string): Promise<{ mediaId: string; url: string }> {
  const created = await api("/api/aivideo/", { token, json: { prompt } });
  expect(created.status).toBe(202);
  // Until the job is final (on a loaded machine it may wait behind other files' jobs for a while), then it
  // must have completed: an error or a timeout fails here with the job's own words.
  const status = await waitForVideoJob(token, created.body.id, 240_000);
  expect(status).toMatchObject({ status: "completed", media_id: expect.any(String), url: expect.any(String) });
  return { mediaId: status.media_id, url: status.url };
}

describe("the Video Hub's generated videos (decision 0043)", () => {
  it("GET /api/videos stays the uploads; the screen's delete removes only the person's own generated clip", async () => {
    const owner = await newUser("generated-owner");
    const other = await newUser("generated-other");
    await upload(owner.token, webmBytes(), "upload.webm");
    // Both at once: the server's runner works two jobs at a time, and on a loaded machine each may wait
    // behind other files' jobs.
    const [clip, otherClip] = await Promise.all([
      generatedClip(owner.token, "Gulls over the pier"),
      generatedClip(other.token, "Someone else's clip"),
    ]);

    // the list in docs/api.md#every-call is the uploads only.
    const listed = await api("/api/videos", { token: owner.token });
    expect(listed.body.map((video: { filename: string }) => video.filename)).toEqual(["upload.mov"]);

    const ownerCookie = await signInWithForm(owner.email);
    // Another person's clip, an unknown id, an upload's id, no id: refused, nothing deleted.
    const uploaded = (await api("/api/library?kind=video", { token: owner.token })).body.files[0].id as string;
    for (const id of [otherClip.mediaId, "00000000-0000-0000-0000-000000000000", uploaded, ""]) {
      expect((await screenPost(ownerCookie, "/videos", { intent: "delete-generated", id, enhanced: "1" })).status).toBe(
        404,
      );
    }
    expect((await download(other.token, otherClip.url)).status).toBe(200);
    expect((await api(videoPath("upload.mov"), { token: owner.token })).status).toBe(200);

    // A plain form asks first (docs/screens.md#dialogs): back to the Video Hub's question, nothing deleted.
    const asked = await screenPost(ownerCookie, "/videos", { intent: "delete-generated", id: clip.mediaId });
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toBe(`/videos?delete-generated=${clip.mediaId}`);
    expect((await download(owner.token, clip.url)).status).toBe(200);
    // Confirmed: deleted, and back to the Video Hub.
    const deleted = await screenPost(ownerCookie, "/videos", {
      intent: "delete-generated",
      id: clip.mediaId,
      confirmed: "1",
    });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("location")).toBe("/videos");
    expect((await download(owner.token, clip.url)).status).toBe(404);
    expect((await api(`/api/library/${clip.mediaId}`, { token: owner.token })).status).toBe(404);
    // Again: it is gone (a plain form is sent back with the failure's toast).
    const again = await screenPost(ownerCookie, "/videos", {
      intent: "delete-generated",
      id: clip.mediaId,
      confirmed: "1",
    });
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe("/videos");
    expect(
      (await screenPost(ownerCookie, "/videos", { intent: "delete-generated", id: clip.mediaId, enhanced: "1" }))
        .status,
    ).toBe(404);
  }, 300_000);
});

async function download(token: string, url: string) {
  const response = await fetch(baseUrl() + url, { headers: { Authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return response;
}

describe("GET /api/videos/signed_url", () => {
  it("is root-relative even when the request came through a TLS proxy", async () => {
    const { token } = await newUser("video");
    await upload(token, mp4Bytes(), "proxied.mp4");
    const { body } = await api("/api/videos/signed_url?filename=proxied.mov", {
      token,
      headers: { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "studio.example.com" },
    });
    expect(body.url.startsWith("/api/videos/play/")).toBe(true);
  });

  async function signedUrl(token: string, filename: string) {
    const { status, body } = await api(`/api/videos/signed_url?${new URLSearchParams({ filename })}`, { token });
    expect(status).toBe(200);
    // Root-relative: an absolute URL built from the request would say http:// behind a TLS proxy.
    expect(body.url).toMatch(/^\/api\/videos\/play\/[0-9a-f-]+\?user=[^&]+&expires=\d+&signature=[\w-]+$/);
    return { url: new URL(body.url, baseUrl()), expiresAt: body.expires_at as string };
  }

  it("gives a link that plays without a session for one hour, with byte ranges", async () => {
    const { token } = await newUser("video");
    const bytes = mp4Bytes(3000);
    await upload(token, bytes, "share.mp4");
    const { url, expiresAt } = await signedUrl(token, "share.mov");
    const hour = Date.parse(expiresAt) - Date.now();
    expect(hour).toBeGreaterThan(3590_000);
    expect(hour).toBeLessThanOrEqual(3600_000);

    const full = await fetch(url);
    expect(full.status).toBe(200);
    expect(full.headers.get("content-type")).toBe("video/mp4");
    expect(full.headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
    expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await fetch(url, { headers: { Range: "bytes=0-3" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-3/${bytes.length}`);

    // The link follows the file through a rename (it names the file's id, not its name).
    await api("/api/videos/rename", { method: "PUT", token, json: { old_name: "share.mov", new_name: "renamed" } });
    expect((await fetch(url)).status).toBe(200);
    // ...and dies with it.
    await api(videoPath("renamed.mov"), { method: "DELETE", token });
    expect((await fetch(url)).status).toBe(404);
  });

  it("refuses a tampered or expired link with 403", async () => {
    const owner = await newUser("video");
    const other = await newUser("video-other");
    await upload(owner.token, mp4Bytes(), "guarded.mp4");
    const { url } = await signedUrl(owner.token, "guarded.mov");
    const variant = (change: (params: URLSearchParams) => void, pathname = url.pathname) => {
      const copy = new URL(url);
      copy.pathname = pathname;
      change(copy.searchParams);
      return fetch(copy);
    };
    const signature = url.searchParams.get("signature")!;
    const flipped = signature.slice(0, -1) + (signature.endsWith("A") ? "B" : "A");
    for (const response of await Promise.all([
      variant((p) => p.set("signature", flipped)),
      variant((p) => p.set("user", other.id)),
      variant((p) => p.set("expires", String(Number(p.get("expires")) + 86_400))),
      variant((p) => p.delete("signature")),
      variant(() => {}, url.pathname.replace(/[^/]+$/, "00000000-0000-0000-0000-000000000000")),
    ])) {
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ detail: "Invalid link signature" });
    }

    // Correctly signed with the server's key, but an hour and a minute old.
    const fileId = url.pathname.split("/").pop()!;
    const userId = url.searchParams.get("user")!;
    const expires = Math.floor(Date.now() / 1000) - 60;
    const key = createHmac("sha256", SECRET).update("signed-media-url/v1").digest();
    const expired = createHmac("sha256", key).update(`${userId}\n${fileId}\n${expires}`).digest("base64url");
    const response = await variant((p) => {
      p.set("expires", String(expires));
      p.set("signature", expired);
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ detail: "This link has expired" });
  });

  it("only for the owner's own videos", async () => {
    const owner = await newUser("video");
    const other = await newUser("video-other");
    await upload(owner.token, mp4Bytes(), "solo.mp4");
    expect((await api("/api/videos/signed_url?filename=solo.mov", { token: other.token })).status).toBe(404);
    expect((await api("/api/videos/signed_url?filename=solo.mov")).status).toBe(401);
  });
});

describe("video limits on a server with VIDEO_MAX_BYTES=65536", () => {
  let server: RunningServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer({ VIDEO_MAX_BYTES: "65536" });
    const email = `video-limits-${Date.now()}@example.com`;
    const headers = { "Content-Type": "application/json" };
    await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      body: JSON.stringify({ email, password: PASSWORD }),
      headers,
    });
    token = (
      await (
        await fetch(`${server.url}/api/auth/login`, {
          method: "POST",
          body: JSON.stringify({ email, password: PASSWORD }),
          headers,
        })
      ).json()
    ).access_token;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("413 over the limit, 201 within it", async () => {
    const post = (bytes: Buffer) =>
      fetch(`${server.url}/api/videos/upload`, {
        method: "POST",
        body: fileForm(bytes, "v.mp4"),
        headers: { Authorization: `Bearer ${token}` },
      });
    const over = await post(mp4Bytes(70_000));
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ detail: "File is too large (the limit is 64 KiB)" });
    expect((await post(mp4Bytes(60_000))).status).toBe(201);
  });
});
