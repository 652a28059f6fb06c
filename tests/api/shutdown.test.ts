import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { newUser } from "../support/api";

// The life cycle's end (docs/decisions/0014): SIGTERM stops accepting connections, lets requests in
// flight finish for at most SHUTDOWN_GRACE_SECONDS, then closes what remains and exits 0.
const GRACE_SECONDS = 2;

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const signIn = async (url: string) => (await newUser("shutdown", url)).token;

/** Whether a new TCP connection to the port is accepted. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * A video upload that trickles in: the multipart head and a valid MP4 start, then 8 bytes every
 * 250 ms of a declared 1 MiB. Resolves once the server has answered or dropped it.
 */
function trickleUpload(url: string, token: string) {
  const boundary = "----trickle";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write("ftypisom", 4, "latin1");
  ftyp.write("isomiso2", 16, "latin1");
  const request = http.request(`${url}/api/videos/upload`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "Content-Length": 1024 * 1024,
    },
  });
  request.write(Buffer.concat([head, ftyp]));
  const timer = setInterval(() => request.write(Buffer.alloc(8, 1)), 250);
  const ended = new Promise<string>((resolve) => {
    request.on("response", (response) => {
      response.resume();
      resolve(`answered ${response.statusCode}`);
    });
    request.on("error", (error) => resolve(`dropped (${(error as NodeJS.ErrnoException).code ?? error.message})`));
  }).finally(() => clearInterval(timer));
  return { ended, stop: () => request.destroy() };
}

describe("shutdown on SIGTERM", () => {
  it("with an upload trickling in: stops accepting, waits the grace period, closes it, exits 0", async () => {
    server = await startTestServer({ SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS) });
    const token = await signIn(server.url);
    const port = Number(new URL(server.url).port);
    const upload = trickleUpload(server.url, token);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000)); // well into the body
      const signalled = Date.now();
      server.child.kill("SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await accepts(port)).toBe(false);
      const { code, signal } = await server.exited;
      const seconds = (Date.now() - signalled) / 1000;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      // It waited for the upload (the grace period), and not much longer.
      expect(seconds).toBeGreaterThanOrEqual(GRACE_SECONDS - 0.3);
      expect(seconds).toBeLessThan(GRACE_SECONDS + 3);
      expect(await upload.ended).toMatch(/^dropped/);
    } finally {
      upload.stop();
    }
  });

  it("a request in flight that finishes within the grace period is answered, then the server exits at once", async () => {
    server = await startTestServer({ SHUTDOWN_GRACE_SECONDS: "10" });
    const token = await signIn(server.url);
    const json = Buffer.from(JSON.stringify({ title: "Sent during shutdown", body: "and kept" }));
    const request = http.request(`${server.url}/api/content`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Length": json.length },
    });
    const answered = new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      request.on("response", (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode!, connection: response.headers.connection }));
      });
      request.on("error", reject);
    });
    request.write(json.subarray(0, 10)); // the request is in flight: half its body sent
    await new Promise((resolve) => setTimeout(resolve, 500));
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 700));
    request.end(json.subarray(10)); // ...and the rest arrives after the signal
    expect(await answered).toEqual({ status: 201, connection: "close" });
    const { code } = await server.exited;
    expect(code).toBe(0);
    expect((Date.now() - signalled) / 1000).toBeLessThan(6); // well short of the 10 s grace period
  });

  it("with nothing in flight: exits 0 at once, and a request finished before the signal is kept", async () => {
    server = await startTestServer({ SHUTDOWN_GRACE_SECONDS: "10" });
    const token = await signIn(server.url);
    const created = await fetch(`${server.url}/api/content`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Kept", body: "across the restart" }),
    });
    expect(created.status).toBe(201);
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    const { code } = await server.exited;
    expect(code).toBe(0);
    expect((Date.now() - signalled) / 1000).toBeLessThan(6); // well short of the 10 s grace period

    // The database was closed cleanly: the next start on the same data has the item.
    const again = await startTestServer({ DATA_DIR: server.dataDir });
    server = again;
    const login = await fetch(`${again.url}/api/content`, { headers: { Authorization: `Bearer ${token}` } });
    const listed = JSON.stringify(await login.json());
    expect(listed).toContain("Kept");
  });
});
