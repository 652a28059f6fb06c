import { index, route, type RouteConfig } from "@react-router/dev/routes";

/** The one URL map: every screen of SPEC §2 and every /api call of SPEC §7. */
export default [
  // Screens
  index("routes/landing.tsx"),
  route("login", "routes/login.tsx"),
  route("register", "routes/register.tsx"),
  route("logout", "routes/logout.ts"),
  route("dashboard", "routes/dashboard.tsx"),
  route("preferences", "routes/preferences.ts"),
  route("feedback", "routes/feedback.tsx"),
  route("capcut", "routes/capcut.tsx"),

  // JSON API
  route("api/health", "routes/api/health.ts"),
  route("api/auth/register", "routes/api/auth.register.ts"),
  route("api/auth/login", "routes/api/auth.login.ts"),
  route("api/auth/refresh", "routes/api/auth.refresh.ts"),
  route("api/auth/logout", "routes/api/auth.logout.ts"),
  route("api/auth/me", "routes/api/auth.me.ts"),
  route("api/feedback", "routes/api/feedback.ts"),
  route("api/*", "routes/api/not-found.ts"),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
