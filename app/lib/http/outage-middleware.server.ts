import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { DomainError } from "../domain-error";
import { logError } from "../observe/log.server";
import { isUnavailable, logOutage, outageOf } from "../outage.server";
import { errorResponse } from "./responder.server";

/**
 * Makes an outage a 503 wherever it surfaces (docs/decisions/0049). React Router turns an error a
 * loader or a middleware throws into its own 500 before an outer middleware sees it (a rendered
 * error page, or "Unexpected Server Error" as text for a resource route); it does hand every such
 * error to the entry's `handleError` first. So `noteError` (called from there) remembers an outage
 * for the request, and `outageMiddleware`, outside the others, answers it instead of the 500:
 * `{"detail"}` with 503 and Retry-After for /api and files, and for screens the root error boundary
 * with the plain message, status 503 and Retry-After (a thrown `data()` after `next()` renders the
 * page again with that error). A DomainError that escapes a resource route outside `apiAction` (a file
 * route's 404 for bytes gone from the store) is answered the same way, as its own status.
 */
/** The outage (or a DomainError of a resource route) React Router caught for this request. */
export const escapedErrorContext = createContext<DomainError | null>(null);

/** Paths answered by resource routes (JSON or files), not by screens. */
const RESOURCE_PATH = /^\/(api|media|static)\//;

/**
 * The entry's handleError: an outage is remembered for the request and logged briefly (at most once
 * a second); anything else is logged under the request's id (not when the client went away).
 */
export function noteError(error: unknown, { request, context }: { request: Request; context?: unknown }): void {
  const provider = context as RouterContextProvider | undefined;
  const remember = (domainError: DomainError) => {
    if (provider && typeof provider.set === "function") provider.set(escapedErrorContext, domainError);
  };
  const outage = outageOf(error);
  if (outage) {
    logOutage(outage);
    return remember(outage);
  }
  // A DomainError a file route threw outside apiAction (e.g. a stored file gone: 404) is answered as
  // such on a resource path, not as a 500; on a screen only an outage changes the answer.
  if (error instanceof DomainError) remember(error);
  // Under the request's id (the front door's X-Request-Id), masked: React Router's text names the path.
  if (!request.signal.aborted) logError(error, { requestId: request.headers.get("x-request-id") });
}

export const outageMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  let response: Response | undefined;
  let outage: DomainError | null = null;
  try {
    response = await next();
  } catch (error) {
    // A middleware's error on a resource route comes through here (React Router rethrows it).
    outage = outageOf(error);
    if (!outage) throw error;
    logOutage(outage);
  }
  outage ??= context.get(escapedErrorContext);
  if (!outage || (response && response.status !== 500)) return response!;
  if (RESOURCE_PATH.test(new URL(request.url).pathname)) return errorResponse(outage);
  if (!isUnavailable(outage)) return response!;
  throw data(outage.detail, { status: 503, headers: outage.options.headers });
};
