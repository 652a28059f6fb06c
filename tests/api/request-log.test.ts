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

/** A request id as the front door gives or keeps one. */
const ID = String.raw`[\w.:@-]{1,128}`;

describe("the request log", () => {
  it("writes one line per request to stdout: method, path without its query, status, duration, bytes and request id", async () => {
    const answers: Response[] = [];
    for (const path of ["/?invitation=secret-code", "/api/health?token=secret-token", "/api/no-such-thing"]) {
      const answer = await fetch(server.url + path);
      await answer.arrayBuffer();
      answers.push(answer);
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 404]);
    const logged = await lines(3);
    expect(logged).toHaveLength(3);
    expect(logged[0]).toMatch(new RegExp(String.raw`^GET / 200 \d+\.\d ms \d+ B ${ID}$`));
    expect(logged[1]).toMatch(new RegExp(String.raw`^GET /api/health 200 \d+\.\d ms \d+ B ${ID}$`));
    expect(logged[2]).toMatch(new RegExp(String.raw`^GET /api/no-such-thing 404 \d+\.\d ms \d+ B ${ID}$`));
    // The id at the end is the one the answer carries, for a person's report to be found.
    answers.forEach((answer, index) =>
      expect(logged[index].endsWith(` ${answer.headers.get("x-request-id")}`)).toBe(true),
    );
    expect(output).not.toContain("secret");
  });
});
