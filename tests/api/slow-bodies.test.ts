import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mp3Frames } from "../support/media";
import { startTestServer, type RunningServer } from "../support/server";

// Slow bodies against the production server, with the limits scaled down through its settings:
// an upload must keep UPLOAD_MIN_BYTES_PER_SECOND on average over each UPLOAD_RATE_WINDOW_SECONDS
// (else 408, its staged bytes removed), and any other request must arrive whole within
// REQUEST_DEADLINE_SECONDS (else 408). A steady upload is not held to the deadline.

const INSTANCE_ID = "slow-bodies";
const DEADLINE_S = 2;
const WINDOW_S = 1;

let server: RunningServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({
    REQUEST_DEADLINE_SECONDS: String(DEADLINE_S),
    UPLOAD_MIN_BYTES_PER_SECOND: "4096",
    UPLOAD_RATE_WINDOW_SECONDS: String(WINDOW_S),
    INSTANCE_ID,
  });
  const email = `slow-${Date.now()}@example.com`;
  const json = (body: unknown) => ({
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(
    (await fetch(`${server.url}/api/auth/register`, json({ email, password: "correct horse battery" }))).status,
  ).toBe(201);
  token = (
    await (await fetch(`${server.url}/api/auth/login`, json({ email, password: "correct horse battery" }))).json()
  ).access_token;
});

afterAll(async () => {
  await server?.stop();
});

/** The files in this instance's staging folder (uploads in progress). */
function stagedFiles(): string[] {
  const folder = path.join(server.dataDir, "media", "tmp", INSTANCE_ID);
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

interface Sent {
  /** The raw answer (status line, headers, body) as far as it came. */
  answer: string;
  /** When the answer's first bytes came, in ms from the connection. */
  answeredMs: number;
  /** Whether the whole body was sent before the answer came. */
  sentAll: boolean;
  /** Staged files seen while the body was still trickling. */
  stagedWhileSending: number;
}

/**
 * Sends `head` (request line and headers), then `start`, then `rest` one piece of `pieceBytes` every
 * `gapMs`, over a plain socket that stops sending once the answer starts and reads all of it.
 */
function send(head: string, start: Buffer, rest: Buffer, { pieceBytes, gapMs }: { pieceBytes: number; gapMs: number }) {
  const url = new URL(server.url);
  return new Promise<Sent>((resolve) => {
    const began = performance.now();
    let answer = "";
    let answeredMs = Infinity;
    let at = 0;
    let stagedWhileSending = 0;
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(head);
      socket.write(start);
    });
    const timer = setInterval(() => {
      if (answer || socket.destroyed) return;
      stagedWhileSending = Math.max(stagedWhileSending, stagedFiles().length);
      if (at < rest.length) {
        socket.write(rest.subarray(at, at + pieceBytes));
        at += pieceBytes;
      }
    }, gapMs);
    socket.on("data", (chunk) => {
      if (!answer) answeredMs = performance.now() - began;
      answer += chunk.toString("utf8");
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ answer, answeredMs, sentAll: at >= rest.length, stagedWhileSending });
    });
    // A keep-alive answer (a 201) leaves the connection open: close it once the body is sent and answered.
    const closer = setInterval(() => {
      if (answer && /\r\n\r\n[\s\S]*(\}|\r\n0\r\n\r\n)$/.test(answer)) {
        clearInterval(closer);
        socket.end();
      }
    }, 50);
    socket.on("close", () => clearInterval(closer));
  });
}

/** A multipart upload of `file` to /api/voice/upload: its head, and the body split as preamble + file + closing. */
function voiceUpload(file: Buffer) {
  const boundary = "----slow-bodies-boundary";
  const preamble = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`,
  );
  const closing = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Buffer.concat([preamble, file, closing]);
  const head =
    `POST /api/voice/upload HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nAuthorization: Bearer ${token}\r\n` +
    `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`;
  return { head, body };
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
/** The {"detail"} of the answer's body (sent with a length or in chunks). */
const detailOf = (answer: string) =>
  JSON.parse(/\{"detail":"(?:[^"\\]|\\.)*"\}/.exec(answer)?.[0] ?? "{}").detail as string;

describe("slow bodies", () => {
  it("cuts a trickling upload with 408 within the rate window and leaves no staged file", async () => {
    // 20 KiB of MP3 frames arrive at once (the file is being staged), then 100 bytes every 200 ms: 500 B/s.
    const { head, body } = voiceUpload(mp3Frames(120));
    const started = performance.now();
    const sent = await send(head, body.subarray(0, 20 * 1024), body.subarray(20 * 1024), {
      pieceBytes: 100,
      gapMs: 200,
    });
    expect(sent.stagedWhileSending).toBeGreaterThan(0);
    expect(statusOf(sent.answer)).toBe(408);
    expect(detailOf(sent.answer)).toBe("The upload was too slow: less than 4 KiB/s over 1 s");
    expect(sent.answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(sent.sentAll).toBe(false);
    // The first window holds the 20 KiB; the second, at 500 B/s, is too slow: cut within two windows (and a margin).
    expect(sent.answeredMs).toBeLessThan(2 * WINDOW_S * 1000 + 1500);
    // The staged bytes are removed (at once or a moment after the answer).
    for (let tries = 0; stagedFiles().length > 0 && tries < 40; tries++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stagedFiles()).toEqual([]);
    const list = await fetch(`${server.url}/api/voice/list-files`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await list.json()).toEqual({ files: [] });
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("holds a steady upload to no deadline: one that takes longer than REQUEST_DEADLINE_SECONDS is stored", async () => {
    // ~80 KiB in pieces of 5 KiB every 250 ms (20 KiB/s, well over the 4 KiB/s it must keep): about 4 s,
    // twice the 2 s deadline of other requests.
    const { head, body } = voiceUpload(mp3Frames(200));
    const sent = await send(head, body.subarray(0, 4096), body.subarray(4096), { pieceBytes: 4096 + 1024, gapMs: 250 });
    expect(statusOf(sent.answer)).toBe(201);
    expect(sent.sentAll).toBe(true);
    expect(sent.answeredMs).toBeGreaterThan(DEADLINE_S * 1000);
  });

  it("cuts a slow JSON body at the request deadline with 408", async () => {
    const json = Buffer.from(JSON.stringify({ title: "Slow", body: "x".repeat(2000) }));
    const head =
      `POST /api/content HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n`;
    // 20 bytes every 100 ms: 2 KB would take 10 s.
    const sent = await send(head, json.subarray(0, 20), json.subarray(20), { pieceBytes: 20, gapMs: 100 });
    expect(statusOf(sent.answer)).toBe(408);
    expect(sent.answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(detailOf(sent.answer)).toMatch(/took too long to arrive/);
    expect(sent.sentAll).toBe(false);
    expect(sent.answeredMs).toBeGreaterThanOrEqual(DEADLINE_S * 1000 - 100);
    expect(sent.answeredMs).toBeLessThan(DEADLINE_S * 1000 + 1500);
    const list = await fetch(`${server.url}/api/content`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await list.json()).toEqual([]);
  });
});
