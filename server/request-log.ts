// One record per request when its answer closes: method, path (without its query string, which may hold
// a token, and with a share link's token masked), status, duration, bytes sent and the request's id.
// LOG_FORMAT=text writes it as a readable line, LOG_FORMAT=json as one JSON object (the app's logger).
// LOG_REQUESTS=0 turns it off (the test launcher does, so tests and benchmarks stay quiet). Why hand-made
// and not morgan: docs/decisions/0056; the JSON form and the masking: docs/decisions/0088. The masking
// and the JSON writer are the app's (app/lib/observe/log.server.ts), given through the build's
// `observability` export: the server imports no app code.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import type { RequestLogRecord } from "../app/lib/observe/log.server";
import { pathOf } from "./refusal";

/** One finished request: the app's own record type (a type only: nothing of the app is loaded here). */
export type RequestRecord = RequestLogRecord;

/** What the front door knows of a request (the app's RequestObservation): its id, start, and route once matched. */
export interface RequestLogObservation {
  id: string;
  /** performance.now() when the front door took the request. */
  startedAt: number;
  route?: string;
}

/** Takes each request's record when its answer closes. */
export type RequestLogWrite = (record: RequestRecord) => void;

/** What the log needs of the app (the build's `observability`, app/lib/observe/log.server.ts). */
export interface RequestLogApp {
  /** A path with a share link's token masked, read as the router reads it (`/x/../s/T` → `/s/***`). */
  maskedPath: (path: string) => string;
  /** The record as one JSON line (pino) on stdout. */
  writeRequestJson: (record: RequestRecord) => void;
}

/** `GET /dashboard 200 4.2 ms 8123 B <id>`, with ` aborted` before the id when the answer did not finish. */
export function formatRequestLine(record: RequestRecord): string {
  const line = `${record.method} ${record.path} ${record.status} ${record.durationMs.toFixed(1)} ms ${record.bytes} B`;
  return `${record.aborted ? `${line} aborted` : line} ${record.id}`;
}

/** Whether LOG_REQUESTS (the build's settings, app/lib/settings/env.server.ts) leaves the log on. */
export function requestLogEnabled(settings: { logRequests?: boolean }): boolean {
  return settings.logRequests !== false;
}

/** Where text lines go: stdout, the lines of one turn of the event loop in one write. */
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
 * The log's writer for LOG_FORMAT (`settings.logFormat`): the path masked by the app, then a text
 * line to `lines` or a JSON line through the app's logger.
 */
export function requestLogWriter(
  format: "text" | "json",
  app: RequestLogApp,
  lines: (line: string) => void = stdoutLines(),
): RequestLogWrite {
  if (format === "json") return (record) => app.writeRequestJson({ ...record, path: app.maskedPath(record.path) });
  return (record) => lines(formatRequestLine({ ...record, path: app.maskedPath(record.path) }));
}

/**
 * Records this request when its answer closes. The bytes are the connection's count since the
 * answer was given it: a later answer on a kept-alive connection counts from where the earlier one
 * ended, and a pipelined one gets its connection only when the one before it is done. The route is
 * read at the end: the app names it while answering.
 */
export function logRequest(
  req: IncomingMessage,
  res: ServerResponse,
  write: RequestLogWrite,
  observation: RequestLogObservation,
): void {
  const connection: { socket: Socket | null; before: number } = { socket: null, before: 0 };
  const take = (socket: Socket) => {
    connection.socket = socket;
    connection.before = socket.bytesWritten;
  };
  if (res.socket) take(res.socket);
  else res.once("socket", take);
  res.once("close", () => {
    write({
      id: observation.id,
      method: req.method ?? "GET",
      route: observation.route,
      path: pathOf(req),
      status: res.statusCode,
      durationMs: performance.now() - observation.startedAt,
      bytes: connection.socket ? connection.socket.bytesWritten - connection.before : 0,
      aborted: !res.writableEnded,
    });
  });
}
