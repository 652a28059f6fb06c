import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

/** The one URL map: every screen of SPEC §2 and every /api call of SPEC §7. */
export default [
  // Screens
  index("routes/landing.tsx"),
  route("login", "routes/login.tsx"),
  route("register", "routes/register.tsx"),
  route("logout", "routes/logout.ts"),
  // Signed-in screens inside the app shell (navigation, theme, account).
  layout("routes/app-shell.tsx", [
    route("dashboard", "routes/dashboard.tsx"),
    route("create", "routes/create.tsx"),
    route("content/:id", "routes/content.tsx"),
    route("preferences", "routes/preferences.ts"),
    route("feedback", "routes/feedback.tsx"),
    route("capcut", "routes/capcut.tsx"),
    route("music", "routes/music.tsx"),
    route("voices", "routes/voices.tsx"),
    route("videos", "routes/videos.tsx"),
    route("videos/:filename", "routes/video.tsx"),
    route("camera", "routes/camera.tsx"),
    route("camera-v2", "routes/camera-v2.tsx"),
    route("voicememo", "routes/voicememo.tsx"),
    route("assistant", "routes/assistant.tsx"),
    route("image", "routes/image.tsx"),
    route("drawing", "routes/drawing.tsx"),
    route("aivideo", "routes/aivideo.tsx"),
    route("projects", "routes/projects.tsx"),
    route("project/:id", "routes/project.tsx"),
  ]),

  // JSON API
  route("api/health", "routes/api/health.ts"),
  route("api/auth/register", "routes/api/auth.register.ts"),
  route("api/auth/login", "routes/api/auth.login.ts"),
  route("api/auth/refresh", "routes/api/auth.refresh.ts"),
  route("api/auth/logout", "routes/api/auth.logout.ts"),
  route("api/auth/me", "routes/api/auth.me.ts"),
  route("api/feedback", "routes/api/feedback.ts"),
  route("api/content", "routes/api/content.ts"),
  route("api/content/:id", "routes/api/content.item.ts"),
  route("api/content/:id/autosave", "routes/api/content.autosave.ts"),
  route("api/content/:id/pin", "routes/api/content.pin.ts"),
  route("api/voice/list-files", "routes/api/voice.list-files.ts"),
  route("api/voice/upload", "routes/api/voice.upload.ts"),
  route("api/voice/file/:name", "routes/api/voice.file.ts"),
  route("api/voice/rename", "routes/api/voice.rename.ts"),
  route("api/videos", "routes/api/videos.ts"),
  route("api/videos/upload", "routes/api/videos.upload.ts"),
  route("api/videos/rename", "routes/api/videos.rename.ts"),
  route("api/videos/signed_url", "routes/api/videos.signed-url.ts"),
  route("api/videos/play/:id", "routes/api/videos.play.ts"),
  route("api/videos/:name", "routes/api/videos.file.ts"),
  route("api/assistant/message", "routes/api/assistant.message.ts"),
  route("api/voice/voices", "routes/api/voice.voices.ts"),
  route("api/voice/generate", "routes/api/voice.generate.ts"),
  route("api/ai/sketch2image", "routes/api/ai.sketch2image.ts"),
  route("api/aivideo", "routes/api/aivideo.ts"),
  route("api/aivideo/status/:id", "routes/api/aivideo.status.ts"),
  route("api/creative-tools/:tool/generate", "routes/api/creative-tools.generate.ts"),
  route("api/project", "routes/api/project.ts"),
  route("api/project/create", "routes/api/project.create.ts"),
  route("api/project/:id", "routes/api/project.item.ts"),
  route("api/*", "routes/api/not-found.ts"),

  // User files (SPEC §7 Voice): owner only; public/static is served before this by the front door.
  route("static/voices/:name", "routes/static.voices.ts"),
  // Generated files (speech, images, AI video) by id, owner only.
  route("media/:id", "routes/media.ts"),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
