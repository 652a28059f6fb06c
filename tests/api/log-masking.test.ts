import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, newUser, PASSWORD } from "../support/api";
import { startTestServer, type RunningServer } from "../support/server";

// Nothing secret reaches the log (app/lib/observe/log.server.ts, docs/decisions/0088): a live share link's
// token, however its path is written, by any method, in the request log and in React Router's own error
// output; a password login's password and its tokens. Under both LOG_FORMATs, with the request log on.
// Raw paths go through node:http, which sends them as written: fetch would normalise them first.

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND"];

/** Each way of writing the shared page's path that reaches it (or names its token). */
const variants = (token: string) => [
  `/s/${token}`,
  `/s/${token}.data`,
  `/x/../s/${token}`,
  `/%2e/s/${token}`,
  `/%53/${token}`,
  `/%73/${token}`,
  `/S/${token}`,
  `/s/./${token}`,
  `//s//${token}`,
  `/s/${token}/file/x`,
];

interface RawAnswer {
  status: number;
  requestId: string | undefined;
}

/** One request with the path exactly as given, on a connection of its own. */
function rawRequest(base: string, method: string, path: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: hostname, port, method, path, agent: false, headers: { "Content-Length": "0" } },
      (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, requestId: response.headers["x-request-id"] as string }),
        );
      },
    );
    request.on("error", reject);
    request.end();
  });
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const format of ["json", "text"] as const) {
  describe(`LOG_FORMAT=${format}`, () => {
    let server: RunningServer;
    let output = "";
    let stdout = "";

    beforeAll(async () => {
      server = await startTestServer({ LOG_REQUESTS: "1", LOG_FORMAT: format });
      server.child.stdout!.on("data", (chunk: Buffer) => {
        stdout += chunk.toString("utf8");
        output += chunk.toString("utf8");
      });
      server.child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    }, 180_000);
    afterAll(() => server?.stop());

    /** The request log's lines so far. */
    const requestLines = (): string[] =>
      format === "json"
        ? stdout.split("\n").filter((line) => line.includes('"msg":"request"'))
        : stdout.split("\n").filter((line) => /^[A-Z]+ \//.test(line));

    /** Waits until the request log has `count` lines (or 20 s), then a moment for stderr to catch up. */
    async function logged(count: number): Promise<void> {
      for (let waited = 0; requestLines().length < count && waited < 20_000; waited += 50) await wait(50);
      await wait(200);
    }

    it("never writes a live link's token, whatever the path's spelling and the method", async () => {
      const owner = await newUser(`log-${format}`, server.url);
      const item = await api("/api/content", {
        token: owner.token,
        json: { title: "Masked", body: "Shared for the log test." },
        server: server.url,
      });
      expect(item.status).toBe(201);
      const made = await api("/api/shares", {
        token: owner.token,
        json: { kind: "content", id: item.body.id },
        server: server.url,
      });
      expect(made.status).toBe(201);
      const token = new URL(made.body.url as string).pathname.split("/")[2];
      expect(token.length).toBeGreaterThanOrEqual(16);
      // The lines so far (the sign-up's, the item's, the link's) are written after their answers: wait
      // for the link's, the last of them, so that none of them is taken for a line of what follows.
      const madeId = made.headers.get("x-request-id")!;
      for (let waited = 0; !stdout.includes(madeId) && waited < 20_000; waited += 50) await wait(50);
      expect(stdout).toContain(madeId);

      const before = requestLines().length;
      const startedAt = stdout.length;
      const answers: RawAnswer[] = [];
      for (const path of variants(token))
        for (const method of METHODS) answers.push(await rawRequest(server.url, method, path));
      // The page itself answers through each spelling the router reads as /s/{token}.
      expect((await rawRequest(server.url, "GET", `/x/../s/${token}`)).status).toBe(200);
      expect((await rawRequest(server.url, "GET", `/%53/${token}`)).status).toBe(200);
      await logged(before + answers.length + 2);

      expect(requestLines().length).toBeGreaterThanOrEqual(before + answers.length + 2);
      expect(output).not.toContain(token);
      // Every answer carries its id, and the log has a line under it.
      for (const answer of answers) {
        expect(answer.requestId).toBeTruthy();
        expect(stdout).toContain(answer.requestId!);
      }

      if (format === "json") {
        // Every line on stdout, the start's included, is one JSON object.
        const all = stdout.split("\n").filter((line) => line.trim() !== "");
        for (const line of all) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
        const lines = stdout
          .slice(startedAt)
          .split("\n")
          .filter((line) => line.trim() !== "");
        for (const line of lines) {
          const parsed = JSON.parse(line) as Record<string, unknown>;
          expect(parsed).toMatchObject({
            level: expect.any(String),
            time: expect.any(String),
            instance: expect.any(String),
          });
          // The app's own background lines ([storage], [speech]) belong to no request; everything else does.
          if (!String(parsed.msg ?? "").startsWith("[")) expect(parsed.request_id, line).toEqual(expect.any(String));
        }
        const page = lines
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => line.msg === "request" && line.method === "GET" && line.status === 200);
        expect(page.length).toBeGreaterThanOrEqual(2);
        for (const line of page) expect(line).toMatchObject({ route: "/s/:token", path: "/s/***", aborted: false });
      } else {
        for (const line of requestLines().slice(before)) expect(line).toMatch(/^[A-Z]+ \/s\/\*\*\*(\/file\/x)? \d{3} /);
      }
    });

    it("never writes a password, a bearer token or a refresh token", async () => {
      const person = await newUser(`log-login-${format}`, server.url);
      const login = await api("/api/auth/login", {
        json: { email: person.email, password: PASSWORD },
        server: server.url,
      });
      expect(login.status).toBe(200);
      const wrong = await api("/api/auth/login", {
        json: { email: person.email, password: `${PASSWORD} but wrong` },
        server: server.url,
      });
      expect(wrong.status).toBeGreaterThanOrEqual(400);
      const before = requestLines().length;
      const me = await api("/api/auth/me", { token: login.body.access_token as string, server: server.url });
      expect(me.status).toBeLessThan(500);
      await logged(before + 1);

      for (const secret of [
        PASSWORD,
        login.body.access_token,
        login.body.refresh_token,
        person.token,
        person.refreshToken,
      ])
        if (typeof secret === "string" && secret) expect(output).not.toContain(secret);
    });
  });
}
