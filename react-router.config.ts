import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  ssr: true,
  // BUILD_DIR lets parallel checkouts or test runs keep separate builds.
  buildDirectory: process.env.BUILD_DIR || "build",
  // One cross-origin check: the root's security middleware (app/lib/http/security.server.ts) refuses
  // cross-site writes with 403 for screens and /api alike, comparing scheme and host (a trusted
  // proxy's X-Forwarded-Proto and -Host, else PUBLIC_URL's scheme) and Sec-Fetch-Site. React Router's
  // own check runs first and compares the Origin with the adapter's URL, which is http:// behind a TLS
  // proxy: it would answer 400 to every form there. "**" (any host) makes it pass everything, so the
  // two never disagree and the middleware's 403 is the one answer (tests/api/transport.test.ts).
  allowedActionOrigins: ["**"],
  future: {
    // Root middleware resolves the session (refreshing it when the access token expired) once per request.
    v8_middleware: true,
    // Loaders, actions and middleware get the request as it came, not two copies of it per route
    // made to strip `.data`, `?index` and `?_routes` (5% of an API request's CPU, more for a
    // document with three loaders: docs/decisions/0083-the-request-path.md). Where the path matters, they read the normalized \`url\` argument.
    v8_passThroughRequests: true,
  },
} satisfies Config;
