import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { EARLY_ANSWER_DRAIN_MAX_BYTES } from "../../server/early-answers";
import {
  applyTimeouts,
  DISCARD_MAX_BYTES,
  discardUnreadBody,
  holdToDeadline,
  lingerOnClose,
} from "../../server/request-limits";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const DEADLINE_MS = 600;

/**
 * A server with the front door's timeouts scaled down (a 600 ms deadline): it reads the whole body
 * and answers its length, or, with `answerAtOnce`, answers before reading anything; `slowAnswerMs`
 * streams the answer for that long once the body is in.
 */
async function frontDoor({ answerAtOnce = false, slowAnswerMs = 0 } = {}) {
  const server = http.createServer((req, res) => {
    holdToDeadline(req, res, { deadlineMs: DEADLINE_MS });
    if (answerAtOnce) return void res.end("early");
    let length = 0;
    req.on("data", (chunk: Buffer) => (length += chunk.length));
    req.on("end", () => {
      if (!slowAnswerMs) return void res.end(String(length));
      // A long answer (an event stream, a download): a part every 100 ms.
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      const parts = Math.ceil(slowAnswerMs / 100);
      let sent = 0;
      const timer = setInterval(() => {
        res.write(`data: ${sent}\n\n`);
        if (++sent === parts) {
          clearInterval(timer);
          res.end(`data: ${length}\n\n`);
        }
      }, 100);
    });
  });
  applyTimeouts(server, { requestDeadlineMs: DEADLINE_MS });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

interface Outcome {
  /** The answer's status, or 0 when the connection was cut without one the client could read. */
  status: number;
  body: string;
  /** When the answer ended or the connection was cut, in ms from the first byte sent. */
  endedMs: number;
  /** When the client sent its last piece of the body (Infinity: it never got to). */
  sentAllMs: number;
}

/**
 * POSTs `chunks` pieces of 1 KiB, `gapMs` apart (a slow body), with `contentType`. Resolves with the
 * answer, or with status 0 when the server cut the connection first: on Node 24 a 408 sent while the
 * client is still writing may reach it as a reset; either way the body was cut.
 */
function slowPost(
  port: number,
  { chunks, gapMs, contentType = "application/json" }: { chunks: number; gapMs: number; contentType?: string },
) {
  return new Promise<Outcome>((resolve) => {
    const started = performance.now();
    let sentAllMs = Infinity;
    let settled = false;
    const settle = (status: number, body: string) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      resolve({ status, body, endedMs: performance.now() - started, sentAllMs });
    };
    const request = http.request({
      port,
      host: "127.0.0.1",
      method: "POST",
      path: "/api/thing",
      headers: { "Content-Length": chunks * 1024, "Content-Type": contentType },
    });
    request.on("response", (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => settle(response.statusCode!, body));
      response.on("error", () => settle(response.statusCode!, body));
    });
    request.on("error", () => settle(0, ""));
    request.on("close", () => setTimeout(() => settle(0, ""), 50));
    let sent = 0;
    const timer = setInterval(() => {
      if (settled || request.destroyed) return;
      request.write(Buffer.alloc(1024));
      if (++sent === chunks) {
        clearInterval(timer);
        sentAllMs = performance.now() - started;
        request.end();
      }
    }, gapMs);
  });
}

/**
 * The same slow body over a plain socket that reads the answer as soon as it comes and then stops
 * sending: what arrived, and when the connection ended. (Node's http client, still writing, could
 * see a connection reset before the 408 when the server destroyed the socket with bytes unread, as on
 * Node 24 in CI; the server now half-closes and drops the rest instead, and this client reads whatever
 * the server said.)
 */
function slowRawPost(port: number, { chunks, gapMs }: { chunks: number; gapMs: number }) {
  return new Promise<{ answer: string; endedMs: number; sentAllMs: number }>((resolve) => {
    const started = performance.now();
    let answer = "";
    let sentAllMs = Infinity;
    let sent = 0;
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(
        `POST /api/thing HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${chunks * 1024}\r\n\r\n`,
      );
    });
    const timer = setInterval(() => {
      if (answer || socket.destroyed) return;
      socket.write(Buffer.alloc(1024));
      if (++sent === chunks) {
        clearInterval(timer);
        sentAllMs = performance.now() - started;
      }
    }, gapMs);
    socket.on("data", (chunk) => (answer += chunk.toString("utf8")));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ answer, endedMs: performance.now() - started, sentAllMs });
    });
  });
}

describe("the request deadline (server/request-limits.ts)", () => {
  it("turns Node's own request timeout off (the deadline is the front door's, uploads have none) and keeps headers within the deadline", () => {
    const server = applyTimeouts(http.createServer(), { requestDeadlineMs: 30_000 });
    expect(server.requestTimeout).toBe(0);
    expect(server.headersTimeout).toBe(30_000);
    expect(applyTimeouts(http.createServer(), { requestDeadlineMs: 120_000 }).headersTimeout).toBe(60_000);
  });

  it("keeps an idle connection open longer than a proxy's upstream pool does (nginx: 60 s), and answers on it after a pause", async () => {
    const server = applyTimeouts(
      http.createServer((_req, res) => res.end("ok")),
      { requestDeadlineMs: 1_000 },
    );
    expect(server.keepAliveTimeout).toBeGreaterThan(60_000);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) =>
        http
          .get({ port: (server.address() as { port: number }).port, host: "127.0.0.1", agent }, (res) => {
            res.resume();
            res.on("end", () => resolve({ status: res.statusCode!, socket: res.socket }));
          })
          .on("error", reject),
      );
    try {
      const first = await get();
      // Idle for longer than the headers timeout: the kept connection still answers.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const second = await get();
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.socket).toBe(first.socket);
    } finally {
      agent.destroy();
      server.closeAllConnections();
      server.close();
    }
  });

  it("cuts a slow non-upload body at the deadline with a 408 the client can read, long before the body would have arrived", async () => {
    const port = await frontDoor();
    // 12 KiB over 2.4 s against a 600 ms deadline.
    const cut = await slowRawPost(port, { chunks: 12, gapMs: 200 });
    expect(cut.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(cut.answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(cut.answer.endsWith(JSON.stringify({ detail: "The request took too long to arrive" }))).toBe(true);
    expect(cut.endedMs).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(cut.sentAllMs).toBe(Infinity);
  });

  it("cuts it for Node's http client too: a 408, or at worst a closed connection, never the whole body read", async () => {
    const port = await frontDoor();
    const cut = await slowPost(port, { chunks: 12, gapMs: 200 });
    expect([408, 0]).toContain(cut.status);
    expect(cut.endedMs).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(cut.endedMs).toBeLessThan(cut.sentAllMs === Infinity ? 2_200 : cut.sentAllMs);
  });

  it("closes the connection of a body still trickling in at the deadline after the answer was sent", async () => {
    const port = await frontDoor({ answerAtOnce: true });
    const outcome = await new Promise<{ answered: string; closedMs: number }>((resolve) => {
      const started = performance.now();
      let answered = "";
      const request = http.request({
        port,
        host: "127.0.0.1",
        method: "POST",
        path: "/",
        headers: { "Content-Length": 30 * 1024 },
      });
      request.on("response", (response) => response.on("data", (chunk) => (answered += chunk)));
      request.on("error", () => {});
      const timer = setInterval(() => request.write(Buffer.alloc(1024)), 100);
      request.on("close", () => {
        clearInterval(timer);
        resolve({ answered, closedMs: performance.now() - started });
      });
    });
    expect(outcome.answered).toBe("early");
    // 30 KiB at 10 KiB/s would take 3 s: the connection goes at the deadline (plus the linger for the reset).
    expect(outcome.closedMs).toBeLessThan(2_800);
  });

  it("holds no upload (multipart/form-data) to the deadline: a slow but steady one arrives whole", async () => {
    const port = await frontDoor();
    const upload = await slowPost(port, { chunks: 12, gapMs: 100, contentType: "multipart/form-data; boundary=x" });
    expect(upload).toMatchObject({ status: 200, body: String(12 * 1024) });
    expect(upload.sentAllMs).toBeGreaterThan(DEADLINE_MS);
  });

  it("times only the arrival: an answer streamed for longer than the deadline is not cut", async () => {
    const port = await frontDoor({ slowAnswerMs: 1_500 });
    const answer = await slowPost(port, { chunks: 2, gapMs: 50 });
    expect(answer.status).toBe(200);
    expect(answer.body.endsWith(`data: ${2 * 1024}\n\n`)).toBe(true);
    expect(answer.endedMs).toBeGreaterThan(1_400);
  });
});

/** A server that answers 413 before reading anything, then drops the unread rest by `discardUnreadBody`. */
async function refusingServer(
  limits: { uploadMinBytesPerSecond: number; uploadRateWindowMs: number },
  maxBytes: number,
) {
  const server = http.createServer((req, res) => {
    res.once("finish", () => discardUnreadBody(req, { requestDeadlineMs: 30_000, ...limits }, maxBytes));
    if (req.method === "GET") return void res.end("second");
    // Refused midway, after its first piece was read (a body nobody began to read Node drops itself).
    req.once("data", () => {
      req.pause();
      res.writeHead(413, { "Content-Type": "text/plain" }).end("too big");
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * Over one connection: a POST announcing `kib` KiB, sent in 8 KiB pieces `gapMs` apart whatever the
 * server says, then a GET. What came back, and whether (and when) the server closed the connection.
 */
function postThenGet(port: number, { kib, gapMs }: { kib: number; gapMs: number }) {
  return new Promise<{ answer: string; closedMs: number }>((resolve) => {
    const started = performance.now();
    let answer = "";
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: ${kib * 1024}\r\n\r\n`);
      let sent = 0;
      const send = () => {
        if (socket.destroyed) return;
        if (sent === kib) return void socket.write("GET /next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        const piece = Math.min(8, kib - sent);
        socket.write(Buffer.alloc(piece * 1024));
        sent += piece;
        setTimeout(send, gapMs);
      };
      send();
    });
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("error", () => {});
    socket.on("close", () => resolve({ answer, closedMs: performance.now() - started }));
  });
}

describe("an unread body (server/request-limits.ts)", () => {
  const lenient = { uploadMinBytesPerSecond: 1, uploadRateWindowMs: 10_000 };

  it("is read and dropped after the answer, so the client finishes sending and the connection serves the next request", async () => {
    const port = await refusingServer(lenient, 1024 * 1024);
    const { answer } = await postThenGet(port, { kib: 256, gapMs: 1 });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain("too big");
    expect(answer.endsWith("second")).toBe(true);
  });

  it("closes the connection once more than its bound was dropped", async () => {
    const port = await refusingServer(lenient, 64 * 1024);
    const { answer } = await postThenGet(port, { kib: 256, gapMs: 1 });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).not.toContain("second");
  });

  it("closes the connection of a rest that trickles in slower than an upload must arrive", async () => {
    // At least 100 KiB/s over each 300 ms window; 8 KiB every 200 ms is 40 KiB/s.
    const port = await refusingServer({ uploadMinBytesPerSecond: 100 * 1024, uploadRateWindowMs: 300 }, 1024 * 1024);
    const { answer, closedMs } = await postThenGet(port, { kib: 256, gapMs: 200 });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).not.toContain("second");
    // The whole body would take 6.4 s; the window ends it after about 300 ms.
    expect(closedMs).toBeLessThan(2_000);
  });
});

describe("a closed connection's linger (server/request-limits.ts)", () => {
  it("half-closes after a `Connection: close` answer: the client reads it whole while still sending, and the socket goes after the linger", async () => {
    const server = http.createServer((req, res) => {
      lingerOnClose(req.socket, 300);
      res.writeHead(408, { Connection: "close", "Content-Type": "text/plain", "Content-Length": 4 }).end("late");
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const outcome = await new Promise<{ answer: string; endedMs: number; closedMs: number }>((resolve) => {
      const started = performance.now();
      let answer = "";
      let endedMs = Infinity;
      // Half-open allowed: the client keeps sending after the server's side has ended.
      const socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true }, () =>
        socket.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10485760\r\n\r\n"),
      );
      // The client goes on sending for 3 s, unaware of the answer.
      const timer = setInterval(() => !socket.destroyed && socket.write(Buffer.alloc(4096)), 20);
      socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
      socket.on("end", () => (endedMs = performance.now() - started));
      socket.on("error", () => {});
      socket.on("close", () => {
        clearInterval(timer);
        resolve({ answer, endedMs, closedMs: performance.now() - started });
      });
      setTimeout(() => socket.destroy(), 3_000);
    });
    expect(outcome.answer, JSON.stringify(outcome)).toMatch(/^HTTP\/1\.1 408 /);
    expect(outcome.answer.endsWith("late"), JSON.stringify(outcome)).toBe(true);
    // The server's side ended first (a half-close, not a reset), and the connection went after the linger.
    expect(outcome.endedMs).toBeLessThan(outcome.closedMs);
    expect(outcome.closedMs - outcome.endedMs).toBeGreaterThanOrEqual(250);
    expect(outcome.closedMs).toBeLessThan(2_000);
  });
});

/**
 * A server behind the front door's deadline that refuses every POST with 503 once its first piece is
 * read (as the app does while the database is away, before an upload is read), and answers a GET.
 */
async function earlyRefuser({ deadlineMs = 30_000 } = {}) {
  const server = http.createServer((req, res) => {
    holdToDeadline(req, res, { deadlineMs });
    res.once("finish", () => discardUnreadBody(req));
    if (req.method === "GET") return void res.end("next");
    req.once("data", () => {
      req.pause();
      res.writeHead(503, { "Content-Type": "text/plain", "Content-Length": 7 }).end("refused");
    });
  });
  applyTimeouts(server, { requestDeadlineMs: deadlineMs });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * Over one raw connection, as nginx forwards a body: a POST announcing `bytes`, sent in 8 KiB pieces
 * `gapMs` apart whatever the server says, until all is sent or the connection ends; once an answer
 * came and the body is all sent, a GET with `Connection: close`. What came back, and when (in ms from
 * the start) the answer began, the body was all sent and the connection closed.
 */
function postAsAProxyDoes(
  port: number,
  {
    bytes,
    gapMs,
    contentType = "multipart/form-data; boundary=x",
  }: { bytes: number; gapMs: number; contentType?: string },
) {
  return new Promise<{ answer: string; answeredMs: number; sentAllMs: number; closedMs: number }>((resolve) => {
    const started = performance.now();
    let answer = "";
    let answeredMs = Infinity;
    let sentAllMs = Infinity;
    let askedNext = false;
    const askNext = () => {
      if (askedNext || answeredMs === Infinity || sentAllMs === Infinity || socket.destroyed) return;
      askedNext = true;
      socket.write("GET /next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    };
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(
        `POST /api/library/upload HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\nContent-Length: ${bytes}\r\n\r\n`,
      );
      let sent = 0;
      const send = () => {
        if (socket.destroyed || !socket.writable) return;
        const piece = Math.min(8 * 1024, bytes - sent);
        socket.write(Buffer.alloc(piece));
        sent += piece;
        if (sent < bytes) return void setTimeout(send, gapMs);
        sentAllMs = performance.now() - started;
        askNext();
      };
      send();
    });
    socket.on("data", (chunk) => {
      if (answeredMs === Infinity) answeredMs = performance.now() - started;
      answer += chunk.toString("latin1");
      askNext();
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve({ answer, answeredMs, sentAllMs, closedMs: performance.now() - started }));
  });
}

/** The head of the first answer in what came back. */
const firstHead = (answer: string) => answer.slice(0, answer.indexOf("\r\n\r\n") + 2);

describe("an early refusal (server/early-answers.ts)", () => {
  it("a refusal to a request whose body is still coming is sent once the body is read, and the connection serves the next request", async () => {
    const port = await earlyRefuser();
    // 256 KiB, as an upload of the outage load, in 32 pieces.
    const outcome = await postAsAProxyDoes(port, { bytes: 256 * 1024, gapMs: 3 });
    expect(outcome.answer, JSON.stringify(outcome)).toMatch(/^HTTP\/1\.1 503 /);
    expect(outcome.answeredMs).toBeGreaterThanOrEqual(outcome.sentAllMs);
    expect(firstHead(outcome.answer)).toMatch(/\r\nConnection: keep-alive\r\n/i);
    expect(outcome.answer).toContain("\r\n\r\nrefused");
    expect(outcome.answer).toMatch(/\r\n\r\nrefusedHTTP\/1\.1 200 OK\r\n/);
    expect(outcome.answer.endsWith("next")).toBe(true);
  });

  it("past EARLY_ANSWER_DRAIN_MAX_BYTES it goes at once, and the rest is dropped after it: the connection serves the next request", async () => {
    const port = await earlyRefuser();
    // 8 MiB and 8 KiB, sent as fast as timers go (about a millisecond a piece).
    const outcome = await postAsAProxyDoes(port, { bytes: EARLY_ANSWER_DRAIN_MAX_BYTES + 8 * 1024, gapMs: 0 });
    expect(outcome.answer, outcome.answer.slice(0, 300)).toMatch(/^HTTP\/1\.1 503 /);
    expect(outcome.answeredMs).toBeLessThan(outcome.sentAllMs);
    expect(firstHead(outcome.answer)).toMatch(/\r\nConnection: keep-alive\r\n/i);
    expect(outcome.answer).toMatch(/\r\n\r\nrefusedHTTP\/1\.1 200 OK\r\n/);
    expect(outcome.answer.endsWith("next")).toBe(true);
  });

  it("past DISCARD_MAX_BYTES it goes at once with Connection: close", async () => {
    const port = await earlyRefuser();
    // 32 MiB and 8 KiB announced, 8 KiB sent every 20 ms: the whole would take over a minute.
    const outcome = await postAsAProxyDoes(port, { bytes: DISCARD_MAX_BYTES + 8 * 1024, gapMs: 20 });
    expect(outcome.answer, JSON.stringify(outcome)).toMatch(/^HTTP\/1\.1 503 /);
    expect(firstHead(outcome.answer)).toMatch(/\r\nConnection: close\r\n/i);
    expect(outcome.answer.endsWith("refused")).toBe(true);
    expect(outcome.sentAllMs).toBe(Infinity);
    expect(outcome.answeredMs).toBeLessThan(1_000);
    // The server's side ends after the answer; the connection goes with it, long before the body would have.
    expect(outcome.closedMs).toBeLessThan(5_000);
  });

  it("a request that is no upload gets its held refusal at the deadline, with Connection: close, not a 408", async () => {
    const port = await earlyRefuser({ deadlineMs: DEADLINE_MS });
    // 128 KiB in 16 pieces 100 ms apart: 1.6 s against a 600 ms deadline.
    const outcome = await postAsAProxyDoes(port, { bytes: 128 * 1024, gapMs: 100, contentType: "application/json" });
    expect(outcome.answer, JSON.stringify(outcome)).toMatch(/^HTTP\/1\.1 503 /);
    expect(firstHead(outcome.answer)).toMatch(/\r\nConnection: close\r\n/i);
    expect(outcome.answer.endsWith("refused")).toBe(true);
    expect(outcome.answeredMs).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(outcome.answeredMs).toBeLessThan(outcome.sentAllMs === Infinity ? 1_500 : outcome.sentAllMs);
  });
});
