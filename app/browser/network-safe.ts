import { isRouteErrorResponse } from "react-router";

/**
 * Runs a route's server action from its clientAction. When the request never gets an answer (the
 * network failed) or the server broke, the screen gets `fallback()` (its docs/screens.md failure text) instead of
 * the page being replaced by the error boundary; redirects and route responses pass through.
 */
export async function withFailureFallback<T, F>(
  serverAction: () => Promise<T>,
  fallback: () => F | Promise<F>,
): Promise<T | F> {
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof Response || isRouteErrorResponse(error)) throw error;
    console.warn("[action] the request failed", error);
    return fallback();
  }
}
