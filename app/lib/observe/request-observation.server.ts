import { createContext, type RouterContextProvider } from "react-router";

/**
 * What the front door (server/observe.ts) knows of a request while it is answered, shared with the
 * app through the load context: the request's id, when it began, the route's pattern once React
 * Router has matched it (observe-middleware.server.ts), and its trace span when tracing is on.
 */
export interface RequestObservation {
  id: string;
  /** performance.now() when the front door took the request. */
  startedAt: number;
  /** The matched route's pattern as app/routes.ts writes it (`/content/:id`), never a path. */
  route?: string;
  /** `http`, or `https` when a trusted proxy says the client used it. */
  scheme?: "http" | "https";
  span?: unknown;
}

/** Set by createLoadContext for each request the front door hands the app; none under `react-router dev`. */
export const requestObservationContext = createContext<RequestObservation | null>(null);

export function requestObservation(context: Readonly<RouterContextProvider>): RequestObservation | null {
  return context.get(requestObservationContext);
}

/**
 * React Router's pattern as app/routes.ts writes it: the build's root route has the path "", so its
 * patterns come without the leading slash (`s/:token`, `api/*`).
 */
export function routeLabel(pattern: string): string {
  return pattern.startsWith("/") ? pattern : `/${pattern}`;
}
