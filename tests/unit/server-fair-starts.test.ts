import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fairStarts } from "../../server/fair-starts";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Counts turns of the event loop (one setImmediate each) while `during` runs. */
function turnCounter() {
  let turn = 0;
  let running = true;
  const tick = () => {
    turn++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    now: () => turn,
    stop: () => void (running = false),
  };
}

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe("fair starts", () => {
  it("starts requests in arrival order, one per turn of the event loop", async () => {
    const turns = turnCounter();
    const started: Array<{ name: string; turn: number }> = [];
    const listener = fairStarts((req) => void started.push({ name: String(req.url), turn: turns.now() }));
    const request = (name: string, destroyed = false) =>
      [{ url: name, socket: { destroyed } }, {}] as unknown as [http.IncomingMessage, http.ServerResponse];
    // Five arrive within one turn; the fourth's client has gone before its turn came.
    for (const name of ["a", "b", "c", "gone", "d"]) listener(...request(name, name === "gone"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    turns.stop();
    expect(started.map((start) => start.name)).toEqual(["a", "b", "c", "d"]);
    const startTurns = started.map((start) => start.turn);
    expect(new Set(startTurns).size).toBe(startTurns.length);
    // Once the queue is empty, the next request starts at once, in the turn it arrives.
    const before = started.length;
    listener(...request("e"));
    expect(started.length).toBe(before + 1);
  });

  it("lets newly opened connections in while kept-alive ones keep the server busy", async () => {
    const started: string[] = [];
    const server = http.createServer(
      fairStarts((req, res) => {
        started.push(String(req.url));
        busy(2); // a page's synchronous work
        setImmediate(() => res.end("ok"));
      }),
    );
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    // A client of its own: 12 kept-alive connections asking again as soon as they are answered;
    // once they have been answered twice each, 12 new connections open at once, one request each.
    const client = `
      const http = require("node:http");
      const port = Number(process.argv[1]);
      const ask = (agent, path) => new Promise((ok, fail) =>
        http.get({ host: "127.0.0.1", port, agent, path }, (r) => { r.resume(); r.on("end", ok); }).on("error", fail));
      const kept = new http.Agent({ keepAlive: true, maxSockets: 12 });
      let stop = false, answered = 0, opened = false;
      const newcomers = () => Promise.all(Array.from({ length: 12 }, () => ask(new http.Agent(), "/new")));
      const loop = async () => {
        while (!stop) {
          await ask(kept, "/busy");
          if (++answered === 24 && !opened) {
            opened = true;
            newcomers().then(() => { stop = true; });
          }
        }
      };
      Promise.all(Array.from({ length: 12 }, loop)).then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
    `;
    const child = spawn(process.execPath, ["-e", client, String(port)], { stdio: ["ignore", "inherit", "inherit"] });
    const code = await new Promise((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    const first = started.indexOf("/new");
    const last = started.lastIndexOf("/new");
    expect(started.filter((url) => url === "/new")).toHaveLength(12);
    // Each newcomer waits behind the requests already waiting (about one per kept-alive connection),
    // not behind every request the kept-alive connections make until libuv gets round to accepting
    // it: here about 12 kept-alive requests start between the first newcomer and the last, and
    // 78 to 84 without fair starts (each turn then begins every kept-alive request, and accepts one).
    const keptBetween = started.slice(first, last).filter((url) => url === "/busy").length;
    expect(keptBetween).toBeLessThan(48);
  });
});
