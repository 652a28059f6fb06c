import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  ssr: true,
  // BUILD_DIR lets parallel checkouts or test runs keep separate builds.
  buildDirectory: process.env.BUILD_DIR || "build",
  future: {
    // Root middleware resolves the session (refreshing it when the access token expired) once per request.
    v8_middleware: true,
    // Loaders, actions and middleware get the request as it came, not two copies of it per route
    // made to strip `.data`, `?index` and `?_routes` (issue 13: 5% of an API request's CPU, more for a
    // document with three loaders). Where the path matters, they read the normalized \`url\` argument.
    v8_passThroughRequests: true,
  },
} satisfies Config;
