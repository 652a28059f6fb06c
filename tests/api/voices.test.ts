import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { mp3Frames, mp3WithId3, mp4Bytes, PNG_BYTES } from "../support/media";
import { api, baseUrl, newUser, PASSWORD } from "../support/api";

/** A multipart body with one file in the field `file` (docs/api.md#every-call). */
function fileForm(bytes: Buffer, filename: string, field = "file") {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type: "application/octet-stream" }), filename);
  return form;
}

async function upload(token: string, bytes: Buffer, filename: string) {
  return api("/api/voice/upload", { raw: fileForm(bytes, filename), token });
}

const voiceUrl = (name: string) => `/static/voices/${encodeURIComponent(name)}`;

async function sessionCookie(email: string, base = baseUrl()) {
  const response = await fetch(`${base}/login`, {
    method: "POST",
    body: new URLSearchParams({ email, password: PASSWORD }),
    redirect: "manual",
  });
  return response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("__Host-session="))!
    .split(";")[0];
}

describe("POST /api/voice/upload", () => {
  it("stores an MP3 and answers 201 {filename}", async () => {
    const { token } = await newUser("voice");
    const { status, body, headers } = await upload(token, mp3WithId3(), "Morning take.mp3");
    expect(status).toBe(201);
    expect(body).toMatchObject({ filename: "Morning take.mp3", size: mp3WithId3().length });
    expect(headers.get("location")).toBe(voiceUrl("Morning take.mp3"));
    expect((await api("/api/voice/list-files", { token })).body).toEqual({ files: ["Morning take.mp3"] });
  });

  it("accepts bare MPEG frames, appends .mp3 to a name without it (lower-cases one in capitals)", async () => {
    const { token } = await newUser("voice");
    expect((await upload(token, mp3Frames(), "take.mp3")).body.filename).toBe("take.mp3");
    expect((await upload(token, mp3Frames(), "raw")).body.filename).toBe("raw.mp3");
    expect((await upload(token, mp3Frames(), "LOUD.MP3")).body.filename).toBe("LOUD.mp3");
    const { body } = await api("/api/voice/list-files", { token });
    expect(body.files).toEqual(["LOUD.mp3", "raw.mp3", "take.mp3"]);
  });

  it("a name the user already has is 409 and nothing is kept (also written differently: no extension, capitals, NFD)", async () => {
    const { token } = await newUser("voice");
    const other = await newUser("voice-other");
    expect((await upload(token, mp3Frames(), "take.mp3")).status).toBe(201);
    expect((await upload(token, mp3Frames(), "Caf\u00e9.mp3")).status).toBe(201);
    for (const name of ["take.mp3", "take", "take.MP3", "Cafe\u0301.mp3"]) {
      expect(await upload(token, mp3WithId3(), name)).toMatchObject({
        status: 409,
        body: { detail: "A file with that name already exists" },
      });
    }
    expect((await api("/api/voice/list-files", { token })).body.files).toEqual(["Caf\u00e9.mp3", "take.mp3"]);
    // The first file is untouched.
    const kept = await api(voiceUrl("take.mp3"), { token });
    expect(kept.status).toBe(200);
    expect(kept.headers.get("content-length")).toBe(String(mp3Frames().length));
    // Names are per user.
    expect((await upload(other.token, mp3Frames(), "take.mp3")).status).toBe(201);
  });

  it("a taken name is refused as soon as the part's file name arrives, not after the whole file", async () => {
    const { token } = await newUser("voice");
    await upload(token, mp3Frames(), "big take.mp3");
    // Send the part's headers and a little of the file, then nothing more: only an early check can answer.
    const boundary = "----early-409";
    const url = new URL(baseUrl());
    const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request({
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/api/voice/upload",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Content-Length": 20 * 1024 * 1024,
        },
      });
      const timer = setTimeout(() => reject(new Error("no answer before the body was complete")), 10_000);
      request.on("response", (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode!, body });
          request.destroy();
        });
      });
      request.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      request.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big take.mp3"\r\n\r\n`);
      request.write(mp3Frames(20));
    });
    expect(response.status).toBe(409);
    expect(JSON.parse(response.body)).toEqual({ detail: "A file with that name already exists" });
  });

  it("never lets the sent file name act as a path; control characters are dropped", async () => {
    const { token } = await newUser("voice");
    expect((await upload(token, mp3WithId3(), "../../../etc/evil.mp3")).body.filename).toBe("evil.mp3");
    expect((await upload(token, mp3WithId3(), "..\\..\\win.mp3")).body.filename).toBe("win.mp3");
    // Raw control characters in a part header are malformed multipart (400); encoded ones are dropped.
    expect((await upload(token, mp3WithId3(), "bell\u0007\u001b.mp3")).status).toBe(400);
    const encoded = Buffer.concat([
      Buffer.from(`--b\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''bell%07%1B%0A.mp3\r\n\r\n`),
      mp3WithId3(),
      Buffer.from("\r\n--b--\r\n"),
    ]);
    const viaEncoded = await api("/api/voice/upload", {
      raw: encoded,
      token,
      headers: { "Content-Type": "multipart/form-data; boundary=b" },
    });
    expect(viaEncoded).toMatchObject({ status: 201, body: { filename: "bell.mp3" } });
    expect((await upload(token, mp3WithId3(), "Grüße 🎙️ #1?.mp3")).body.filename).toBe("Grüße 🎙️ #1?.mp3");
    const served = await api(voiceUrl("Grüße 🎙️ #1?.mp3"), { token });
    expect(served.status).toBe(200);
  });

  it("refuses content that is not MP3 with 415, whatever the name says", async () => {
    const { token } = await newUser("voice");
    // The last: a valid ID3 tag header followed by a web page, not audio.
    const id3Html = Buffer.concat([
      Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]),
      Buffer.from("<html><script>alert(1)</script></html>"),
    ]);
    for (const bytes of [PNG_BYTES, mp4Bytes(), Buffer.from("#!/bin/sh\nrm -rf /\n"), id3Html]) {
      expect(await upload(token, bytes, "song.mp3")).toMatchObject({
        status: 415,
        body: { detail: "Only MP3 files allowed" },
      });
    }
    expect((await api("/api/voice/list-files", { token })).body).toEqual({ files: [] });
  });

  it("bad requests answer 4xx with a detail, never 500", async () => {
    const { token } = await newUser("voice");
    expect(await api("/api/voice/upload", { json: { file: "x" }, token })).toMatchObject({
      status: 415,
      body: { detail: expect.stringContaining("multipart/form-data") },
    });
    expect(await api("/api/voice/upload", { raw: fileForm(mp3WithId3(), "a.mp3", "audio"), token })).toMatchObject({
      status: 422,
      body: { detail: 'A file is required (multipart field "file")' },
    });
    expect(await upload(token, Buffer.alloc(0), "empty.mp3")).toMatchObject({
      status: 422,
      body: { detail: "The file is empty" },
    });
    const noBoundary = await api("/api/voice/upload", {
      raw: "garbage",
      token,
      headers: { "Content-Type": "multipart/form-data" },
    });
    expect(noBoundary.status).toBe(415);
    const broken = await api("/api/voice/upload", {
      raw: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.mp3"\r\n\r\nID3',
      token,
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
    });
    expect(broken.status).toBe(400);
    expect(await api("/api/voice/upload", { token })).toMatchObject({ status: 405 });
  });

  it("needs a bearer token or the session cookie", async () => {
    expect(await api("/api/voice/upload", { raw: fileForm(mp3WithId3(), "a.mp3") })).toMatchObject({ status: 401 });
    expect(await api("/api/voice/list-files")).toMatchObject({ status: 401 });
    expect(
      await api("/api/voice/upload", { raw: fileForm(mp3WithId3(), "a.mp3"), token: "not-a-token" }),
    ).toMatchObject({ status: 401 });

    const { email } = await newUser("voice-cookie");
    const cookie = await sessionCookie(email);
    const viaCookie = await api("/api/voice/upload", {
      raw: fileForm(mp3WithId3(), "cookie.mp3"),
      headers: { Cookie: cookie },
    });
    expect(viaCookie.status).toBe(201);
    expect((await api(voiceUrl("cookie.mp3"), { headers: { Cookie: cookie } })).status).toBe(200);
  });
});

describe("GET /static/voices/{name}", () => {
  it("serves the owner's file with its type, nosniff and byte ranges", async () => {
    const { token } = await newUser("voice");
    const bytes = Buffer.concat([mp3WithId3(), Buffer.alloc(1000, 9)]);
    await upload(token, bytes, "range.mp3");
    const auth = { Authorization: `Bearer ${token}` };

    const full = await fetch(baseUrl() + voiceUrl("range.mp3"), { headers: auth });
    expect(full.status).toBe(200);
    expect(full.headers.get("content-type")).toBe("audio/mpeg");
    expect(full.headers.get("x-content-type-options")).toBe("nosniff");
    expect(full.headers.get("accept-ranges")).toBe("bytes");
    expect(full.headers.get("content-length")).toBe(String(bytes.length));
    expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);

    const part = await fetch(baseUrl() + voiceUrl("range.mp3"), { headers: { ...auth, Range: "bytes=0-2" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-2/${bytes.length}`);
    expect(await part.text()).toBe("ID3");

    const tail = await fetch(baseUrl() + voiceUrl("range.mp3"), { headers: { ...auth, Range: "bytes=-10" } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(-10))).toBe(true);

    for (const range of [`bytes=${bytes.length}-`, "bytes=9-3", "bytes=x-y"]) {
      const refused = await fetch(baseUrl() + voiceUrl("range.mp3"), { headers: { ...auth, Range: range } });
      expect(refused.status).toBe(416);
      expect(refused.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
    }

    const head = await fetch(baseUrl() + voiceUrl("range.mp3"), { method: "HEAD", headers: auth });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(bytes.length));
  });

  it("is the owner's only: another user, no session or an unknown name get nothing", async () => {
    const owner = await newUser("voice-owner");
    const other = await newUser("voice-other");
    await upload(owner.token, mp3WithId3(), "private.mp3");
    expect((await api(voiceUrl("private.mp3"), { token: other.token })).status).toBe(404);
    expect((await api(voiceUrl("private.mp3"))).status).toBe(401);
    expect((await api(voiceUrl("nope.mp3"), { token: owner.token })).status).toBe(404);
    // Bundled static files are still served to everyone (public/ comes first).
    expect((await api("/static/sounds/success.wav")).status).toBe(200);
  });

  it("path-like and control-character names find nothing", async () => {
    const { token } = await newUser("voice");
    for (const name of ["../../studio.sqlite", "..%2F..%2Fsession-secret", "%00.mp3", "a%0Ab.mp3"]) {
      const { status } = await api(`/static/voices/${name}`, { token });
      expect([400, 404]).toContain(status);
    }
  });
});

describe("PUT /api/voice/rename and DELETE /api/voice/file/{name}", () => {
  it("finds a name sent decomposed (NFD) for playback, rename and delete; a capitalised .MP3 is stored lower case", async () => {
    const { token } = await newUser("voice");
    expect((await upload(token, mp3WithId3(), "Cafe\u0301 take.mp3")).body.filename).toBe("Caf\u00e9 take.mp3");
    expect((await api(`/static/voices/${encodeURIComponent("Cafe\u0301 take.mp3")}`, { token })).status).toBe(200);
    const renamed = await api(
      `/api/voice/rename?${new URLSearchParams({ old_name: "Cafe\u0301 take.mp3", new_name: "Shout.MP3" })}`,
      { method: "PUT", token },
    );
    expect(renamed).toMatchObject({ status: 200, body: { filename: "Shout.mp3" } });
    await api(`/api/voice/rename?${new URLSearchParams({ old_name: "Shout.mp3", new_name: "U\u0308ber" })}`, {
      method: "PUT",
      token,
    });
    expect((await api("/api/voice/list-files", { token })).body.files).toEqual(["\u00dcber.mp3"]);
    expect(
      (await api(`/api/voice/file/${encodeURIComponent("U\u0308ber.mp3")}`, { method: "DELETE", token })).status,
    ).toBe(200);
    expect((await api("/api/voice/list-files", { token })).body.files).toEqual([]);
  });

  it("renames (trimmed, .mp3 appended): the file moves to the new name", async () => {
    const { token } = await newUser("voice");
    await upload(token, mp3WithId3(), "old.mp3");
    const renamed = await api(
      `/api/voice/rename?${new URLSearchParams({ old_name: "old.mp3", new_name: "  fresh take " })}`,
      { method: "PUT", token },
    );
    expect(renamed).toMatchObject({ status: 200, body: { filename: "fresh take.mp3", old_name: "old.mp3" } });
    expect((await api(voiceUrl("old.mp3"), { token })).status).toBe(404);
    expect((await api(voiceUrl("fresh take.mp3"), { token })).status).toBe(200);
    expect((await api("/api/voice/list-files", { token })).body.files).toEqual(["fresh take.mp3"]);
  });

  it("refuses blank, path-like, control-character, too long and taken names", async () => {
    const { token } = await newUser("voice");
    await upload(token, mp3WithId3(), "a.mp3");
    await upload(token, mp3WithId3(), "b.mp3");
    const rename = (new_name: string, old_name = "a.mp3") =>
      api(`/api/voice/rename?${new URLSearchParams({ old_name, new_name })}`, { method: "PUT", token });
    expect(await rename("   ")).toMatchObject({ status: 422, body: { detail: "Name is required" } });
    expect(await rename("../b")).toMatchObject({ status: 422, body: { detail: "Name must not contain / or \\" } });
    expect(await rename("x\\y")).toMatchObject({ status: 422 });
    expect(await rename("tab\there")).toMatchObject({
      status: 422,
      body: { detail: "Name must not contain control characters" },
    });
    expect(await rename("z".repeat(200))).toMatchObject({
      status: 422,
      body: { detail: "Name must be at most 120 characters" },
    });
    expect(await rename("b")).toMatchObject({ status: 409, body: { detail: "A file with that name already exists" } });
    expect(await rename("c", "missing.mp3")).toMatchObject({ status: 404 });
    expect(await api("/api/voice/rename?old_name=a.mp3", { method: "PUT", token })).toMatchObject({
      status: 422,
      body: { detail: "new_name is required" },
    });
    expect(await api("/api/voice/rename", { method: "POST", token, json: {} })).toMatchObject({ status: 405 });
    expect((await api("/api/voice/list-files", { token })).body.files.sort()).toEqual(["a.mp3", "b.mp3"]);
  });

  it("deletes: the file is gone; a second delete is 404", async () => {
    const { token } = await newUser("voice");
    await upload(token, mp3WithId3(), "bye.mp3");
    expect(await api(`/api/voice/file/${encodeURIComponent("bye.mp3")}`, { method: "DELETE", token })).toMatchObject({
      status: 200,
      body: { ok: true, filename: "bye.mp3" },
    });
    expect((await api(voiceUrl("bye.mp3"), { token })).status).toBe(404);
    expect((await api(`/api/voice/file/bye.mp3`, { method: "DELETE", token })).status).toBe(404);
  });

  it("another user can neither list, rename nor delete the owner's files", async () => {
    const owner = await newUser("voice-owner");
    const other = await newUser("voice-other");
    await upload(owner.token, mp3WithId3(), "mine.mp3");
    expect((await api("/api/voice/list-files", { token: other.token })).body).toEqual({ files: [] });
    expect(
      (await api(`/api/voice/rename?old_name=mine.mp3&new_name=stolen`, { method: "PUT", token: other.token })).status,
    ).toBe(404);
    expect((await api(`/api/voice/file/mine.mp3`, { method: "DELETE", token: other.token })).status).toBe(404);
    expect((await api("/api/voice/list-files", { token: owner.token })).body).toEqual({ files: ["mine.mp3"] });
  });
});

describe("voice limits on a server with VOICE_MAX_BYTES=4096", () => {
  let server: RunningServer;
  let token: string;
  const storedFiles = () =>
    fs
      .readdirSync(path.join(server.dataDir, "media"), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);

  beforeAll(async () => {
    server = await startTestServer({ VOICE_MAX_BYTES: "4096" });
    token = (await newUser("limits", server.url)).token;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const post = (body: BodyInit, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    fetch(`${server.url}/api/voice/upload`, {
      method: "POST",
      body,
      signal,
      headers: { Authorization: `Bearer ${token}`, ...headers },
      duplex: "half",
    } as RequestInit);

  it("a duplicate name keeps nothing on disk", async () => {
    expect((await post(fileForm(mp3Frames(), "once.mp3"))).status).toBe(201);
    const before = storedFiles().length;
    const again = await post(fileForm(mp3Frames(), "once.mp3"));
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ detail: "A file with that name already exists" });
    expect(storedFiles().length).toBe(before);
  });

  it("accepts a file of exactly the limit", async () => {
    const exact = Buffer.concat([mp3WithId3(), Buffer.alloc(4096 - mp3WithId3().length, 1)]);
    expect((await post(fileForm(exact, "exact.mp3"))).status).toBe(201);
  });

  it("a file one byte over is 413 with the limit in the detail, and nothing is kept", async () => {
    const before = storedFiles().length;
    const over = Buffer.concat([mp3WithId3(), Buffer.alloc(4097 - mp3WithId3().length, 1)]);
    const response = await post(fileForm(over, "over.mp3"));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ detail: "File is too large (the limit is 4 KiB)" });
    expect(storedFiles().length).toBe(before);
  });

  it("a large declared body is refused at once (413), a streamed one without a length too", async () => {
    const huge = Buffer.concat([mp3WithId3(), Buffer.alloc(3 * 1024 * 1024)]);
    expect((await post(fileForm(huge, "huge.mp3"))).status).toBe(413);

    const boundary = "----studio-test";
    async function* chunked() {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="stream.mp3"\r\n\r\n`);
      yield mp3WithId3();
      for (let i = 0; i < 64; i++) yield Buffer.alloc(64 * 1024, 2);
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    }
    const response = await post(Readable.toWeb(Readable.from(chunked())) as unknown as BodyInit, {
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
    });
    expect(response.status).toBe(413);
    expect(storedFiles().filter((name) => name.endsWith(".part"))).toEqual([]);
  });

  it("an upload cut off mid-way leaves nothing behind", async () => {
    const before = storedFiles().length;
    const boundary = "----studio-cut";
    const controller = new AbortController();
    async function* halfBody() {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.mp3"\r\n\r\n`);
      yield mp3Frames(3);
      await new Promise((resolve) => setTimeout(resolve, 200));
      controller.abort();
      yield Buffer.alloc(10);
    }
    await post(
      Readable.toWeb(Readable.from(halfBody())) as unknown as BodyInit,
      { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      controller.signal,
    ).then(
      (response) => response.status,
      () => "aborted",
    );
    // The server notices the disconnect and removes its temporary file.
    await expect.poll(() => storedFiles().length, { timeout: 5000 }).toBe(before);
    const list = await fetch(`${server.url}/api/voice/list-files`, { headers: { Authorization: `Bearer ${token}` } });
    expect((await list.json()).files).not.toContain("cut.mp3");
  });
});
