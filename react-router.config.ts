import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  ssr: true,
  future: {
    // Root middleware resolves the session (refreshing it when the access token expired) once per request.
    v8_middleware: true,
  },
} satisfies Config;
