import type { RemoteCallConfig } from "./config.server";
import { fetchPinned, type DownloadPin } from "./download-pin.server";
import { ProviderError, type Capability } from "./errors.server";
import { tracingEnabled, withSpan, type SpanNotes } from "~/lib/observe/trace.server";

/**
 * One HTTP call to a remote AI provider: a timeout per attempt, a bounded retry on 429, 5xx and
 * network failures (with backoff; Retry-After is honoured up to 10 s), an overall deadline for the
 * whole call (attempts, pauses and reading the answer), and failures turned into ProviderError.
 * Provider bodies are never logged or passed on: they can echo keys or prompts.
 */
export interface RemoteRequest {
  capability: Capability;
  /** The provider's id, for the log. */
  provider: string;
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Must be replayable (a string, FormData or bytes): it is sent again on a retry. */
  body?: string | FormData | Uint8Array;
  call: RemoteCallConfig;
  signal?: AbortSignal;
  /**
   * A download from a link the provider gave: `url` and every redirect must pass checkDownloadUrl
   * against this pin (redirects are followed by download-pin.server.ts, at most MAX_DOWNLOAD_REDIRECTS,
   * each checked).
   */
  pin?: DownloadPin;
}

const RETRY_AFTER_CAP_MS = 10_000;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

function retryDelay(response: Response | null, attempt: number, baseMs: number): number {
  const header = response?.headers.get("retry-after");
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, RETRY_AFTER_CAP_MS);
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.min(Math.max(0, date - Date.now()), RETRY_AFTER_CAP_MS);
  }
  return baseMs * 2 ** attempt;
}

const isRetryable = (status: number) => status === 429 || status >= 500;

/**
 * Sends the request; resolves with the first 2xx response (its body unread) or throws ProviderError.
 * `streaming`: the attempt's timeout covers only the wait for the answer's head (the caller bounds
 * reading the stream itself, chunk by chunk).
 */
async function send(
  request: RemoteRequest,
  streaming = false,
): Promise<{ response: Response; attemptSignal: AbortSignal }> {
  const { capability, provider, call } = request;
  // Per attempt timeouts alone let retries and Retry-After pauses add up to minutes: the deadline caps the sum.
  const deadline = Date.now() + call.totalTimeoutMs;
  const pastDeadline = () =>
    new ProviderError(capability, provider, "timeout", "no answer before the overall deadline");
  let lastFailure: ProviderError | null = null;
  for (let attempt = 0; attempt <= call.maxRetries; attempt++) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw pastDeadline();
    // The attempt's signal also bounds reading the body, so the deadline covers the whole call.
    const timer = new AbortController();
    const clock = setTimeout(
      () => timer.abort(new DOMException("The attempt timed out", "TimeoutError")),
      Math.min(call.timeoutMs, remaining),
    );
    // Unref'd like AbortSignal.timeout: a finished call's clock must not hold the process.
    clock.unref?.();
    const timeout = timer.signal;
    const attemptSignal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    let response: Response | null = null;
    try {
      response = await attemptSpan(request, attempt, () => fetchFollowing(request, attemptSignal));
    } catch (error) {
      clearTimeout(clock);
      if (error instanceof ProviderError) throw error;
      if (request.signal?.aborted) throw request.signal.reason;
      const timedOut = timeout.aborted;
      lastFailure = new ProviderError(
        capability,
        provider,
        timedOut ? "timeout" : "unavailable",
        timedOut ? "no answer in time" : "network error",
      );
    }
    if (response?.ok) {
      if (streaming) clearTimeout(clock);
      return { response, attemptSignal };
    }
    clearTimeout(clock);
    if (response) {
      // Drain and drop the body: it may echo what we sent.
      await response.body?.cancel().catch(() => {});
      if (!isRetryable(response.status)) {
        throw new ProviderError(capability, provider, "rejected", `HTTP ${response.status}`);
      }
      lastFailure = new ProviderError(capability, provider, "unavailable", `HTTP ${response.status}`);
    }
    if (attempt < call.maxRetries) {
      const delay = retryDelay(response, attempt, call.retryBaseMs);
      // A pause that would end past the deadline is not worth waiting out.
      if (Date.now() + delay >= deadline) throw pastDeadline();
      await sleep(delay, request.signal);
    }
  }
  throw lastFailure!;
}

/**
 * An attempt as a CLIENT span when traces are on (OpenTelemetry's HTTP conventions): the URL without
 * its query or credentials, the answer's status, and which retry it is.
 */
function attemptSpan(request: RemoteRequest, attempt: number, fetchIt: () => Promise<Response>): Promise<Response> {
  if (!tracingEnabled()) return fetchIt();
  const url = new URL(request.url);
  const method = request.method ?? (request.body === undefined ? "GET" : "POST");
  const attributes = {
    "http.request.method": method,
    "server.address": url.hostname,
    "server.port": Number(url.port) || (url.protocol === "https:" ? 443 : 80),
    "url.full": `${url.origin}${url.pathname}`,
    ...(attempt > 0 ? { "http.request.resend_count": attempt } : {}),
  };
  const fetched = async (span: SpanNotes) => {
    const response = await fetchIt();
    span.set({ "http.response.status_code": response.status });
    if (response.status >= 400) span.fail(String(response.status));
    return response;
  };
  return withSpan(method, attributes, fetched, { kind: "client" });
}

/**
 * One attempt's fetch. Without a pin, redirects are followed by fetch itself (calls to the configured
 * base URL). With one (a provider-given download link), each redirect is checked against the pin
 * (download-pin.server.ts).
 */
async function fetchFollowing(request: RemoteRequest, signal: AbortSignal): Promise<Response> {
  const method = request.method ?? (request.body === undefined ? "GET" : "POST");
  const init = { method, headers: request.headers, body: request.body as BodyInit | undefined, signal };
  const { pin } = request;
  if (!pin) return fetch(request.url, { ...init, redirect: "follow" });
  return fetchPinned(request.url, init, request.capability, request.provider, pin);
}

async function readLimited(
  response: Response,
  maxBytes: number,
  request: RemoteRequest,
  signal: AbortSignal,
): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length"));
  const tooLarge = () =>
    new ProviderError(request.capability, request.provider, "bad_response", `answer larger than ${maxBytes} bytes`);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        await response.body?.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(Buffer.from(chunk));
    }
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    if (request.signal?.aborted) throw request.signal.reason;
    throw new ProviderError(
      request.capability,
      request.provider,
      signal.aborted ? "timeout" : "unavailable",
      "answer interrupted",
    );
  }
  return Buffer.concat(chunks);
}

/** A JSON answer (at most 20 MiB: image answers carry base64). */
export async function remoteJson(request: RemoteRequest): Promise<unknown> {
  const { response, attemptSignal } = await send(request);
  const bytes = await readLimited(response, 20 * 1024 * 1024, request, attemptSignal);
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new ProviderError(request.capability, request.provider, "bad_response", "answer is not JSON");
  }
}

/** A binary answer (audio, image, video) of at most `maxBytes`, with its Content-Type. */
export async function remoteBytes(
  request: RemoteRequest,
  maxBytes: number,
): Promise<{ bytes: Buffer; contentType: string | null }> {
  const { response, attemptSignal } = await send(request);
  const bytes = await readLimited(response, maxBytes, request, attemptSignal);
  if (bytes.length === 0) throw new ProviderError(request.capability, request.provider, "bad_response", "empty answer");
  return { bytes, contentType: response.headers.get("content-type") };
}

/**
 * A streamed answer read event by event: with `text/event-stream`, each Server-Sent Event's data
 * (multi-line data joined by "\n"); any other answer (a server that ignored `stream: true`) comes as
 * one piece, its whole body. Every read must arrive within the per-attempt timeout (a stalled stream
 * ends as "timeout") and the whole call within the overall deadline. Retries happen only before the
 * answer starts.
 */
export async function remoteEventStream(
  request: RemoteRequest,
): Promise<{ sse: boolean; events: AsyncGenerator<string> }> {
  const started = Date.now();
  const { response } = await send(request, true);
  const sse = /^text\/event-stream/i.test(response.headers.get("content-type") ?? "");
  const deadline = started + request.call.totalTimeoutMs;
  const maxBytes = 20 * 1024 * 1024;
  const failure = (failure: "timeout" | "unavailable" | "bad_response", detail: string) =>
    new ProviderError(request.capability, request.provider, failure, detail);

  async function* events(): AsyncGenerator<string> {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let size = 0;
    let pending = "";
    let data: string[] = [];
    let finished = false;
    const read = async () => {
      const wait = Math.min(request.call.timeoutMs, deadline - Date.now());
      if (wait <= 0) throw failure("timeout", "the stream passed the overall deadline");
      let timer: ReturnType<typeof setTimeout> | undefined;
      const quiet = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(failure("timeout", "the stream went quiet")), wait);
      });
      try {
        return await Promise.race([reader.read(), quiet]);
      } catch (error) {
        if (error instanceof ProviderError) throw error;
        if (request.signal?.aborted) throw request.signal.reason;
        throw failure("unavailable", "stream interrupted");
      } finally {
        clearTimeout(timer);
      }
    };
    try {
      for (;;) {
        const chunk = await read();
        if (chunk.done) break;
        size += chunk.value.byteLength;
        if (size > maxBytes) throw failure("bad_response", `stream larger than ${maxBytes} bytes`);
        pending += decoder.decode(chunk.value, { stream: true });
        if (!sse) continue;
        const lines = pending.split(/\r\n|\r|\n/);
        pending = lines.pop() ?? "";
        for (const line of lines) {
          if (line === "") {
            if (data.length) yield data.join("\n");
            data = [];
          } else if (line.startsWith("data:")) {
            data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
          }
          // Comments (":") and the other fields (event, id, retry) carry nothing we use.
        }
      }
      pending += decoder.decode();
      if (!sse) {
        if (pending) yield pending;
      } else {
        if (pending.startsWith("data:")) data.push(pending.slice(pending.startsWith("data: ") ? 6 : 5));
        if (data.length) yield data.join("\n");
      }
      finished = true;
    } finally {
      // Stopped early (done, failed, or the caller went away): the provider stops generating.
      if (!finished) await reader.cancel().catch(() => {});
    }
  }
  if (!response.body) throw failure("bad_response", "empty answer");
  return { sse, events: events() };
}
