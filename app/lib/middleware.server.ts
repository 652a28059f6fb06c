import type { MiddlewareFunction } from "react-router";
import { apiError } from "./http.server";
import { isCrossOriginMutation, SECURITY_HEADERS } from "./security.server";

/** Applies header changes to a response, copying it when its headers are immutable. */
export function withHeaders(response: Response, apply: (headers: Headers) => void): Response {
  try {
    apply(response.headers);
    return response;
  } catch {
    // Some responses (e.g. from fetch) have immutable headers: copy them.
    const copy = new Response(response.body, response);
    apply(copy.headers);
    return copy;
  }
}

/** Refuses cross-site form posts and API writes; adds the security headers to every answer. */
export const securityMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (isCrossOriginMutation(request)) {
    const isApi = new URL(request.url).pathname.startsWith("/api/");
    throw isApi ? apiError(403, "Cross-origin request refused") : new Response("Cross-origin request refused", { status: 403 });
  }
  const response = await next();
  return withHeaders(response, (headers) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!headers.has(name)) headers.set(name, value);
  });
};
