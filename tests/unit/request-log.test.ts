import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettings } from "~/lib/settings/env.server";
import { formatRequestLine, logRequest, maskedPath, requestLogEnabled } from "../../server/request-log";

describe("the request log's line (server/request-log.ts)", () => {
  it("says method, path, status, duration in ms and bytes, and marks an answer cut short", () => {
    const record = { method: "GET", path: "/dashboard", status: 200, durationMs: 4.23, bytes: 8123, aborted: false };
    expect(formatRequestLine(record)).toBe("GET /dashboard 200 4.2 ms 8123 B");
    expect(formatRequestLine({ ...record, status: 408, aborted: true })).toBe(
      "GET /dashboard 408 4.2 ms 8123 B aborted",
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
});

describe("a share link's token in the request log (server/request-log.ts)", () => {
  it("is masked on the shared page and on its files, whatever the case or encoding of the s", () => {
    const token = "Zk3q9V_x-2mP0aLr8sT1uW4yB6cD5eF7";
    expect(maskedPath(`/s/${token}`)).toBe("/s/***");
    expect(maskedPath(`/s/${token}.data`)).toBe("/s/***");
    expect(maskedPath(`/s/${token}/file/0c5b-file-id`)).toBe("/s/***/file/0c5b-file-id");
    expect(maskedPath(`/S/${token}`)).toBe("/s/***");
    expect(maskedPath(`//s//${token}/file/x`)).toBe("/s/***/file/x");
    expect(maskedPath(`/%73/${token}`)).toBe("/s/***");
  });

  it("leaves every other path as it is", () => {
    for (const path of ["/", "/s", "/s/", "/dashboard", "/static/voices/s/x", "/settings/abc", "/api/shares/abc"])
      expect(maskedPath(path)).toBe(path);
  });
});

describe("logging requests (server/request-log.ts)", () => {
  const lines: string[] = [];
  let server: http.Server;
  let base = "";
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      logRequest(req, res, (line) => lines.push(line));
      if (req.url?.startsWith("/cut")) {
        res.writeHead(200, { "Content-Type": "text/plain" });
        res.write("part");
        return void setTimeout(() => res.destroy(), 50);
      }
      res.writeHead(201, { "Content-Type": "text/plain" }).end("x".repeat(1000));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const nextLine = async (count: number) => {
    for (let tries = 0; lines.length < count && tries < 100; tries++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return lines[count - 1];
  };

  it("writes one line per answer, without the query string, with the bytes sent on the connection", async () => {
    for (const round of [1, 2]) {
      const response = await fetch(`${base}/things?token=secret-${round}`, { method: "POST", body: "{}" });
      expect(await response.text()).toHaveLength(1000);
      const line = await nextLine(round);
      expect(line).toMatch(/^POST \/things 201 \d+\.\d ms (\d+) B$/);
      expect(line).not.toContain("secret");
      // The body and a head of some size, for the second answer on the kept-alive connection too.
      const bytes = Number(/ (\d+) B$/.exec(line)![1]);
      expect(bytes).toBeGreaterThan(1000);
      expect(bytes).toBeLessThan(1400);
    }
  });

  it("marks an answer whose connection was cut", async () => {
    const before = lines.length;
    await fetch(`${base}/cut`)
      .then((response) => response.text())
      .catch(() => "");
    expect(await nextLine(before + 1)).toMatch(/^GET \/cut 200 \d+\.\d ms \d+ B aborted$/);
  });
});
