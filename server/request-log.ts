// One line per request on stdout: method, path (without its query string, which may hold a token,
// and with a share link's token masked), status, duration and bytes sent. LOG_REQUESTS=0 turns it off (the test launcher does, so tests and
// benchmarks stay quiet). Why hand-made and not morgan: docs/decisions/0056.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { pathOf } from "./refusal";

export interface RequestRecord {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  /** Bytes the answer put on the connection, its head included. */
  bytes: number;
  /** The connection closed before the answer was ended (a client gone, an answer cut by the server). */
  aborted: boolean;
}

/** `GET /dashboard 200 4.2 ms 8123 B`, then ` aborted` when the answer did not finish. */
export function formatRequestLine(record: RequestRecord): string {
  const line = `${record.method} ${record.path} ${record.status} ${record.durationMs.toFixed(1)} ms ${record.bytes} B`;
  return record.aborted ? `${line} aborted` : line;
}

/**
 * A share link's token is its only secret (whoever has it may open the link): `/s/{token}` and the
 * paths under it are logged as `/s/***`. Routes match without regard to case, and a percent-encoded
 * letter is still that letter, so `/S/…` and `/%73/…` are masked too.
 */
const SHARE_PATH = /^\/+(?:s|%73)\/+[^/]+/i;

export function maskedPath(path: string): string {
  return path.replace(SHARE_PATH, "/s/***");
}

/** Whether LOG_REQUESTS (the build's settings, app/lib/settings/env.server.ts) leaves the log on. */
export function requestLogEnabled(settings: { logRequests?: boolean }): boolean {
  return settings.logRequests !== false;
}

/** Where the lines go: stdout, the lines of one turn of the event loop in one write. */
export function stdoutLines(): (line: string) => void {
  let pending: string[] = [];
  return (line) => {
    if (pending.length === 0) {
      setImmediate(() => {
        const text = pending.join("\n") + "\n";
        pending = [];
        process.stdout.write(text);
      });
    }
    pending.push(line);
  };
}

/**
 * Records this request when its answer closes. The bytes are the connection's count since the
 * answer was given it: a later answer on a kept-alive connection counts from where the earlier one
 * ended, and a pipelined one gets its connection only when the one before it is done.
 */
export function logRequest(req: IncomingMessage, res: ServerResponse, write: (line: string) => void): void {
  const started = performance.now();
  const connection: { socket: Socket | null; before: number } = { socket: null, before: 0 };
  const take = (socket: Socket) => {
    connection.socket = socket;
    connection.before = socket.bytesWritten;
  };
  if (res.socket) take(res.socket);
  else res.once("socket", take);
  res.once("close", () => {
    const record: RequestRecord = {
      method: req.method ?? "GET",
      path: maskedPath(pathOf(req)),
      status: res.statusCode,
      durationMs: performance.now() - started,
      bytes: connection.socket ? connection.socket.bytesWritten - connection.before : 0,
      aborted: !res.writableEnded,
    };
    write(formatRequestLine(record));
  });
}
