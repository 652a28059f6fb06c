// Early answers: a refusal (4xx, 5xx) the app begins while its request's body still arrives (a 503
// while the database is away, before an upload is read) is held until the rest of the body is read
// and dropped, then sent. Sent at once, it reaches a proxy that streams bodies through (nginx with
// `proxy_request_buffering off`) while the proxy is still sending, and nginx then closes its client's
// kept-alive connection after the answer: a client that pooled that connection (undici) sends its next
// request into a closed one and gets no answer. holdToDeadline (server/request-limits.ts) asks it in
// the layer that guards the deadline, so the deadline still applies. Why: docs/decisions/0091.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Limits } from "./request-limits";

/**
 * The largest body whose rest is read before a refusal begun while it arrives is sent. A larger one by
 * its Content-Length is refused at once (its rest is dropped after the answer, discardUnreadBody); a
 * chunked one that passes it while held is refused then, and its connection closes after the answer.
 */
export const EARLY_ANSWER_DRAIN_MAX_BYTES = 8 * 1024 * 1024;

/**
 * One response's early answer. The app's first writeHead, write or end decides: any other answer, or
 * one to a body already in, passes untouched. A 408 (the body is already too slow) and a body larger
 * than is dropped after an answer (`closeOverBytes`) are answered at once with `Connection: close`; so
 * is a held one whose rest comes slower than an upload must, passes the bound, or passes the deadline
 * (sendNow). A body between the two bounds is answered at once, as before.
 */
export class EarlyAnswer {
  /** The app's calls while held, replayed in order; null when nothing is held. */
  private held: Array<() => unknown> | null = null;
  private decided = false;
  private stopDrop: (() => void) | null = null;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly limits: Limits,
    private readonly closeOverBytes: number,
  ) {}

  /** Whether the app's call, on an answer of `status`, is held (then kept). */
  holds(status: number): boolean {
    if (this.held !== null) return true;
    if (this.decided) return false;
    this.decided = true;
    const { req, res } = this;
    if (status < 400 || req.complete || req.destroyed || req.readableEnded) return false;
    const length = Number(req.headers["content-length"] ?? 0);
    if (status === 408 || length > this.closeOverBytes) {
      if (!res.headersSent) res.setHeader("Connection", "close");
      return false;
    }
    if (length > EARLY_ANSWER_DRAIN_MAX_BYTES) return false;
    this.held = [];
    this.stopDrop = dropRest(req, this.limits, EARLY_ANSWER_DRAIN_MAX_BYTES, () => this.send(true));
    req.once("end", () => this.send(false));
    // The client went: there is no one to send it to.
    req.once("close", () => (this.held = null));
    return true;
  }

  keep(call: () => unknown): void {
    this.held?.push(call);
  }

  /** Sends what is held now, with `Connection: close` (the deadline passed); false when nothing is held. */
  sendNow(): boolean {
    if (this.held === null) return false;
    this.send(true);
    return true;
  }

  private send(closing: boolean) {
    const calls = this.held;
    if (calls === null) return;
    this.held = null;
    // What still arrives is dropped on, until the connection closes after the answer (its linger).
    this.stopDrop?.();
    if (closing && !this.res.headersSent) this.res.setHeader("Connection", "close");
    try {
      for (const call of calls) call();
    } catch {
      // The answer, replayed, broke (a second head after a failed body): the client sees a cut connection.
      this.res.destroy();
    }
  }
}

/**
 * Reads and drops the rest of a request's body, its other readers removed (the adapter pauses a body
 * nobody reads); `giveUp`, once, when more than `maxBytes` came or it came slower than an upload must
 * (uploadMinBytesPerSecond on average over each uploadRateWindowMs). Returns what stops the rate's
 * timer; the dropping goes on.
 */
export function dropRest(req: IncomingMessage, limits: Limits, maxBytes: number, giveUp: () => void): () => void {
  let dropped = 0;
  let windowBytes = 0;
  let gaveUp = false;
  const least = (limits.uploadMinBytesPerSecond * limits.uploadRateWindowMs) / 1000;
  const rate = setInterval(() => {
    if (windowBytes < least) fail();
    windowBytes = 0;
  }, limits.uploadRateWindowMs);
  const stop = () => clearInterval(rate);
  const fail = () => {
    if (gaveUp) return;
    gaveUp = true;
    stop();
    giveUp();
  };
  req.removeAllListeners("data");
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    windowBytes += chunk.length;
    if (dropped > maxBytes) fail();
  });
  req.once("close", stop);
  req.once("end", stop);
  req.resume();
  return stop;
}
