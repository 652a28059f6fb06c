import type { MiddlewareFunction } from "react-router";
import { requestObservation, routeLabel } from "./request-observation.server";

/**
 * The first of the root's middleware: tells the front door's observation which route answers, from
 * the pattern React Router has already matched (no second match), for the metrics' `http_route`, the
 * log's `route` and the span's name. Unmatched paths are the catch-all routes (`/api/*`, `/*`).
 */
export const observeMiddleware: MiddlewareFunction<Response> = ({ context, pattern }, next) => {
  const observation = requestObservation(context);
  if (observation) observation.route = routeLabel(pattern);
  return next();
};
