import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";

// The request log (server/request-log.ts) of the production build, turned on: the test launcher
// turns it off for every other server (LOG_REQUESTS=0).
let server: RunningServer;
let output = "";

beforeAll(async () => {
  server = await startTestServer({ LOG_REQUESTS: "1" });
  server.child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
});
afterAll(() => server?.stop());

/** The log's lines so far, once `count` of them have come (or after 10 s). */
async function lines(count: number): Promise<string[]> {
  const logged = () => output.split("\n").filter((line) => /^[A-Z]+ \//.test(line));
  for (let waited = 0; logged().length < count && waited < 10_000; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return logged();
}

describe("the request log", () => {
  it("writes one line per request to stdout: method, path without its query, status, duration and bytes", async () => {
    expect((await fetch(`${server.url}/?invitation=secret-code`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/health?token=secret-token`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/no-such-thing`)).status).toBe(404);
    const logged = await lines(3);
    expect(logged).toHaveLength(3);
    expect(logged[0]).toMatch(/^GET \/ 200 \d+\.\d ms \d+ B$/);
    expect(logged[1]).toMatch(/^GET \/api\/health 200 \d+\.\d ms \d+ B$/);
    expect(logged[2]).toMatch(/^GET \/api\/no-such-thing 404 \d+\.\d ms \d+ B$/);
    expect(output).not.toContain("secret");
  });
});
