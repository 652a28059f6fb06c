import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  ssr: true,
  // BUILD_DIR lets parallel checkouts or test runs keep separate builds.
  buildDirectory: process.env.BUILD_DIR || "build",
  future: {
    // Root middleware resolves the session (refreshing it when the access token expired) once per request.
    v8_middleware: true,
  },
} satisfies Config;
