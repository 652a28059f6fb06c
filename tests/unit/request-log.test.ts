import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  installConsole,
  logError,
  maskedPath,
  maskSecrets,
  writeRequestJson,
  type LogDestination,
} from "~/lib/observe/log.server";
import { parseSettings } from "~/lib/settings/env.server";
import {
  formatRequestLine,
  logRequest,
  requestLogEnabled,
  requestLogWriter,
  type RequestRecord,
} from "../../server/request-log";

const TOKEN = "Zk3q9V_x-2mP0aLr8sT1uW4yB6cD5eF7";
const ID = "3f0c9a52-6a8e-4b7d-9c1e-2d4f6a8b0c1e";

/** A JSON destination that keeps the lines it is given. */
function captured(): LogDestination & { lines: () => Record<string, unknown>[]; text: () => string } {
  const chunks: string[] = [];
  return {
    write: (chunk) => void chunks.push(chunk),
    text: () => chunks.join(""),
    lines: () =>
      chunks
        .join("")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

let uninstall: (() => void) | null = null;
afterEach(() => {
  uninstall?.();
  uninstall = null;
  vi.restoreAllMocks();
});

describe("the request log's line (server/request-log.ts)", () => {
  const record: RequestRecord = {
    id: ID,
    method: "GET",
    path: "/dashboard",
    status: 200,
    durationMs: 4.23,
    bytes: 8123,
    aborted: false,
  };

  it("says method, path, status, duration in ms and bytes, marks an answer cut short, and ends with the request id", () => {
    expect(formatRequestLine(record)).toBe(`GET /dashboard 200 4.2 ms 8123 B ${ID}`);
    expect(formatRequestLine({ ...record, status: 408, aborted: true })).toBe(
      `GET /dashboard 408 4.2 ms 8123 B aborted ${ID}`,
    );
  });

  it("is on by default and LOG_REQUESTS=0 (or false) turns it off", () => {
    const settings = (env: Record<string, string>) => parseSettings({ SESSION_SECRET: "x".repeat(40), ...env });
    expect(requestLogEnabled(settings({}))).toBe(true);
    expect(requestLogEnabled(settings({ LOG_REQUESTS: "1" }))).toBe(true);
    expect(requestLogEnabled(settings({ LOG_REQUESTS: "0" }))).toBe(false);
    expect(requestLogEnabled(settings({ LOG_REQUESTS: "false" }))).toBe(false);
    expect(() => settings({ LOG_REQUESTS: "sometimes" })).toThrow(/LOG_REQUESTS/);
  });

  it("masks the path with the app's maskedPath in text, the share token gone however the path is written", () => {
    const lines: string[] = [];
    const write = requestLogWriter("text", { maskedPath, writeRequestJson }, (line) => lines.push(line));
    write({ ...record, path: `/x/../s/${TOKEN}/file/f1` });
    write({ ...record, path: `/%53/${TOKEN}.data`, route: "/s/:token" });
    expect(lines).toEqual([`GET /s/***/file/f1 200 4.2 ms 8123 B ${ID}`, `GET /s/*** 200 4.2 ms 8123 B ${ID}`]);
  });

  it("writes one JSON object a line for LOG_FORMAT=json: level, time, instance, request id, route, masked path", () => {
    const out = captured();
    uninstall = installConsole("json", out);
    const write = requestLogWriter("json", { maskedPath, writeRequestJson }, () => {
      throw new Error("no text line in JSON");
    });
    write({ ...record, path: `/s/./${TOKEN}`, route: "/s/:token", durationMs: 12.345 });
    write({ ...record, path: "/favicon.ico", aborted: true });
    const [shared, file] = out.lines();
    expect(Object.keys(shared)).toEqual([
      "level",
      "time",
      "instance",
      "request_id",
      "method",
      "route",
      "path",
      "status",
      "duration_ms",
      "bytes",
      "aborted",
      "msg",
    ]);
    expect(shared).toMatchObject({
      level: "info",
      request_id: ID,
      method: "GET",
      route: "/s/:token",
      path: "/s/***",
      status: 200,
      duration_ms: 12.3,
      bytes: 8123,
      aborted: false,
      msg: "request",
    });
    expect(new Date(shared.time as string).toISOString()).toBe(shared.time);
    expect(typeof shared.instance).toBe("string");
    // Client files and the front door's refusals have no route: the key is left out.
    expect(file).not.toHaveProperty("route");
    expect(file).toMatchObject({ path: "/favicon.ico", aborted: true });
    expect(out.text()).not.toContain(TOKEN);
  });
});

describe("secrets in any log line (app/lib/observe/log.server.ts)", () => {
  it("masks bearer and personal tokens, JWTs, passwords, cookies, query strings and share paths", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLXBhcnQ";
    const text = [
      `Authorization: Bearer cas_${TOKEN}`,
      `authorization: 'Bearer ${jwt}'`,
      `token ${jwt} in prose`,
      `{"email":"a@b.c","password":"hunter 2 two","new_password":"s3cret!"}`,
      `{ current_password: 'open sesame', refreshToken: 'r-${TOKEN}' }`,
      `cookie: __Host-session=${TOKEN}; prefs=dark`,
      `GET https://studio.example/api/invitations?code=${TOKEN}`,
      `You made a POST request to "/s/${TOKEN}" but did not provide an action`,
      `SESSION_SECRET=${TOKEN} api-key: ${TOKEN}`,
    ].join("\n");
    const masked = maskSecrets(text);
    expect(masked).not.toContain(TOKEN);
    expect(masked).not.toContain(jwt);
    for (const secret of ["hunter", "two", "s3cret", "sesame", "prefs=dark"]) expect(masked).not.toContain(secret);
    expect(masked).toContain("Authorization: Bearer ***");
    expect(masked).toContain('"email":"a@b.c"');
    expect(masked).toContain('You made a POST request to "/s/***" but did not provide an action');
    expect(masked).toContain("https://studio.example/api/invitations?***");
    // Masking again changes nothing.
    expect(maskSecrets(masked)).toBe(masked);
  });

  it("leaves ordinary lines alone: prose, stack frames, addresses, numbers", () => {
    for (const line of [
      "[studio] Creative AI Studio is running at http://127.0.0.1:3000",
      "[outage] database unavailable: password authentication failed for user studio",
      "    at verifyToken (file:///srv/studio/build/server/index.js:120:7)",
      "the token expired; sign in again",
      "GET /api/shares/abc 200 1.2 ms 300 B",
      "Why? Because.",
    ])
      expect(maskSecrets(line)).toBe(line);
  });

  it("masks the request log's path as the router reads it", () => {
    expect(maskedPath(`/s/${TOKEN}`)).toBe("/s/***");
    expect(maskedPath(`/s/${TOKEN}.data`)).toBe("/s/***");
    expect(maskedPath(`/s/${TOKEN}/file/0c5b-file-id`)).toBe("/s/***/file/0c5b-file-id");
    expect(maskedPath(`/S/${TOKEN}`)).toBe("/s/***");
    expect(maskedPath(`//s//${TOKEN}/file/x`)).toBe("/s/***/file/x");
    expect(maskedPath(`/%73/${TOKEN}`)).toBe("/s/***");
    expect(maskedPath(`/x/../s/${TOKEN}`)).toBe("/s/***");
    for (const path of ["/", "/s", "/s/", "/dashboard", "/static/voices/s/x", "/settings/abc", "/api/shares/abc"])
      expect(maskedPath(path)).toBe(path);
  });
});

describe("errors and the console (app/lib/observe/log.server.ts)", () => {
  const failure = () => new Error(`no such link: /x/../s/${TOKEN} (Bearer cas_${TOKEN})`);

  it("LOG_FORMAT=json: an error is one line with its request id and its stack, masked", () => {
    const out = captured();
    uninstall = installConsole("json", out);
    logError(failure(), { requestId: ID });
    const [line] = out.lines();
    expect(line).toMatchObject({ level: "error", request_id: ID, err: { type: "Error" } });
    const err = line.err as { message: string; stack: string };
    expect(err.message).toBe("no such link: /s/*** (Bearer ***)");
    expect(err.stack).toContain("request-log.test.ts");
    expect(out.text()).not.toContain(TOKEN);
  });

  it("LOG_FORMAT=json: React Router's ErrorResponse (not an Error) is written masked, with its status", () => {
    const out = captured();
    uninstall = installConsole("json", out);
    const response = {
      status: 405,
      statusText: "Method Not Allowed",
      internal: true,
      data: `Error: You made a POST request to "/s/${TOKEN}" but did not provide an \`action\``,
      error: new Error(`You made a POST request to "/s/${TOKEN}" but did not provide an \`action\``),
    };
    logError(response, { requestId: ID });
    expect(out.lines()[0]).toMatchObject({ level: "error", request_id: ID, msg: "405 Method Not Allowed" });
    expect(out.text()).not.toContain(TOKEN);
  });

  it("LOG_FORMAT=json: the console's lines become JSON at their level, masked", () => {
    const out = captured();
    uninstall = installConsole("json", out);
    console.log("[studio] running at %s", "http://127.0.0.1:3000");
    console.warn(`[ai] slow answer for /s/${TOKEN}`);
    console.error(failure());
    const [log, warn, error] = out.lines();
    expect(log).toMatchObject({ level: "info", msg: "[studio] running at http://127.0.0.1:3000" });
    expect(warn).toMatchObject({ level: "warn", msg: "[ai] slow answer for /s/***" });
    expect(error).toMatchObject({ level: "error", err: { type: "Error" } });
    expect(out.text()).not.toContain(TOKEN);
  });

  it("LOG_FORMAT=text: an error prints as Node prints it, after its request id, masked; so does the console", () => {
    const printed: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void printed.push(args.join(" ")));
    uninstall = installConsole("text");
    logError(failure(), { requestId: ID });
    console.error("[outage] storage unavailable at", `/S/${TOKEN}`);
    expect(printed[0]).toMatch(
      new RegExp(`^\\[request ${ID}\\] Error: no such link: /s/\\*\\*\\* \\(Bearer \\*\\*\\*\\)\\n    at `),
    );
    expect(printed[1]).toBe("[outage] storage unavailable at /s/***");
    expect(printed.join("\n")).not.toContain(TOKEN);
  });
});

describe("logging requests (server/request-log.ts)", () => {
  const records: RequestRecord[] = [];
  let server: http.Server;
  let base = "";
  let served = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const observation = {
        id: `request-${++served}`,
        startedAt: performance.now(),
        route: undefined as string | undefined,
      };
      logRequest(req, res, (record) => records.push(record), observation);
      if (req.url?.startsWith("/cut")) {
        res.writeHead(200, { "Content-Type": "text/plain" });
        res.write("part");
        return void setTimeout(() => res.destroy(), 50);
      }
      // The app names the route while it answers; the log reads it at the end.
      observation.route = "/things";
      res.writeHead(201, { "Content-Type": "text/plain" }).end("x".repeat(1000));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const nextRecord = async (count: number) => {
    for (let tries = 0; records.length < count && tries < 100; tries++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return records[count - 1];
  };

  it("gives one record per answer, without the query string, with the bytes sent on the connection and the id", async () => {
    for (const round of [1, 2]) {
      const response = await fetch(`${base}/things?token=secret-${round}`, { method: "POST", body: "{}" });
      expect(await response.text()).toHaveLength(1000);
      const record = await nextRecord(round);
      expect(record).toMatchObject({ id: `request-${round}`, method: "POST", path: "/things", route: "/things" });
      expect(record.status).toBe(201);
      expect(record.aborted).toBe(false);
      expect(formatRequestLine(record)).toMatch(
        new RegExp(`^POST /things 201 \\d+\\.\\d ms (\\d+) B request-${round}$`),
      );
      expect(JSON.stringify(record)).not.toContain("secret");
      // The body and a head of some size, for the second answer on the kept-alive connection too.
      expect(record.bytes).toBeGreaterThan(1000);
      expect(record.bytes).toBeLessThan(1400);
    }
  });

  it("marks an answer whose connection was cut", async () => {
    const before = records.length;
    await fetch(`${base}/cut`)
      .then((response) => response.text())
      .catch(() => "");
    const record = await nextRecord(before + 1);
    expect(formatRequestLine(record)).toMatch(/^GET \/cut 200 \d+\.\d ms \d+ B aborted request-\d+$/);
    expect(record.route).toBeUndefined();
  });
});
