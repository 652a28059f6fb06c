import { DomainError } from "../domain-error";
import { logOutage, outageOf } from "../outage.server";

/**
 * The API's one responder: a DomainError answers `{"detail", ...data}` with its status and headers;
 * the database or the store out of reach is the 503 "unavailable" (app/lib/outage.server.ts);
 * anything else is rethrown (a thrown Response passes through, a bug stays a 500).
 */
export function errorResponse(error: unknown): Response {
  const outage = outageOf(error);
  if (outage) logOutage(outage);
  const answer = outage ?? error;
  if (!(answer instanceof DomainError)) throw error;
  return Response.json(
    { detail: answer.detail, ...answer.data },
    { status: answer.status, headers: answer.options.headers },
  );
}

/** JSON error answers of the API: `{"detail": "..."}` with the status that names the problem. */
export function apiError(status: number, detail: string, headers?: HeadersInit): Response {
  return errorResponse(
    new DomainError(status, detail, { headers: headers && Object.fromEntries(new Headers(headers)) }),
  );
}

/**
 * Wraps an API route's loader or action: whatever DomainError it (or a model or service it calls)
 * throws is answered by `errorResponse`, so no route catches errors by hand.
 */
export function apiAction<Args extends unknown[]>(
  handler: (...args: Args) => Response | Promise<Response>,
): (...args: Args) => Promise<Response> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/**
 * An answer whose body is bytes kept in memory (a kept page or content list): handed to the Response as a
 * one-chunk stream, because a Uint8Array body is copied first (90 µs for 150 KB, a tenth of the
 * request). Nothing downstream writes to a body's chunks, so many answers can share the bytes.
 */
export function keptBytesResponse(
  bytes: Uint8Array,
  init: { status?: number; headers: Record<string, string> | [string, string][] },
): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  const headers = new Headers(init.headers);
  headers.set("Content-Length", String(bytes.byteLength));
  return new Response(body, { status: init.status, headers });
}

/**
 * A GET for an HTML page, not for its data (`/dashboard.data`, a client-side navigation's). Loaders
 * and middleware get the request as it came (future.v8_passThroughRequests), `.data` suffix included.
 */
export function isDocumentRequest(request: Request): boolean {
  return request.method === "GET" && !new URL(request.url).pathname.endsWith(".data");
}

/** 405 with the methods the URL does answer in `Allow`. */
export function methodNotAllowed(allow: string, detail = "Method not allowed"): DomainError {
  return new DomainError(405, detail, { headers: { Allow: allow } });
}

/** A loader or action that only refuses the method: `export const loader = refuseMethod("POST")`. */
export function refuseMethod(allow: string, detail?: string): () => Response {
  return () => errorResponse(methodNotAllowed(allow, detail));
}

/** Throws the 405 unless the request's method is one of `allowed` (the URL's other methods go in `Allow`). */
export function requireMethod(request: Request, allowed: string[], allow = allowed.join(", ")): void {
  if (!allowed.includes(request.method)) throw methodNotAllowed(allow);
}

/**
 * A screen's `headers` export that passes its action's Retry-After (a 429 of the person's AI limits)
 * to the page's answer, beside the parent routes' and its loader's headers: `export const headers = actionRetryAfter`.
 */
export function actionRetryAfter({
  actionHeaders,
  loaderHeaders,
  parentHeaders,
}: {
  actionHeaders: Headers;
  loaderHeaders: Headers;
  parentHeaders: Headers;
}): Headers {
  const headers = new Headers(parentHeaders);
  loaderHeaders.forEach((value, name) =>
    name === "set-cookie" ? headers.append(name, value) : headers.set(name, value),
  );
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}
