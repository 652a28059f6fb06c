// The production HTTP server: static files, then React Router for everything else.
// Express (rather than react-router-serve) lets us pass the client's address to the app
// (login rate limits) and, later, stream large uploads.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const buildDir = path.resolve(root, process.env.BUILD_DIR || "build");
const CLIENT_ADDRESS_HEADER = "x-studio-client-address";

function trustProxySetting(value) {
  if (value === undefined || value === "" || value === "false") return false;
  if (value === "true") return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value; // an address list or a preset such as "loopback"
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const allowedOrigins = (process.env.ALLOWED_ORIGINS ?? "").split(",").map((o) => o.trim()).filter(Boolean);

/**
 * Cross-site writes are refused with 403 before React Router sees them (its own guard answers 400
 * for pages; app/lib/security.server.ts applies the same rule under `react-router dev`).
 */
function refuseCrossOriginWrites(req, res, next) {
  const origin = req.get("origin");
  if (SAFE_METHODS.has(req.method) || !origin) return next();
  let originHost = null;
  try {
    originHost = origin === "null" ? null : new URL(origin).host;
  } catch {
    originHost = null;
  }
  const host = req.get("x-forwarded-host") ?? req.get("host");
  if (originHost && (originHost === host || allowedOrigins.some((a) => a === origin || a === originHost))) return next();
  res.status(403);
  if (req.path.startsWith("/api/")) res.json({ detail: "Cross-origin request refused" });
  else res.type("text/plain").send("Cross-origin request refused");
}

export async function createServer() {
  const build = await import(path.join(buildDir, "server/index.js"));
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxySetting(process.env.TRUST_PROXY));
  app.use(compression());

  app.use((req, _res, next) => {
    // Only this server decides who the client is: a header sent by the client is replaced.
    req.headers[CLIENT_ADDRESS_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    next();
  });

  // Static files get the headers the app's middleware gives every other response.
  const setHeaders = (res) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  };
  const client = path.join(buildDir, "client");
  app.use("/assets", express.static(path.join(client, "assets"), { immutable: true, maxAge: "1y", index: false, setHeaders }));
  app.use(express.static(client, { maxAge: "1h", index: false, setHeaders }));
  app.use(refuseCrossOriginWrites);
  app.all("*", createRequestHandler({ build, mode: "production" }));
  return app;
}

/**
 * Node's default requestTimeout (300 s) cuts off any request whose body takes longer, so a 2 GiB
 * video would need about 7 MB/s. Uploads are not bounded by duration but by a stall timer
 * (app/lib/upload.server.ts drops one that sends nothing for 60 s) and by size limits; other
 * bodies are small and size-capped. The headers still have to arrive within 60 s (slowloris).
 */
export function applyTimeouts(server) {
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  return server;
}

export async function startServer() {
  const app = await createServer();
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? "0.0.0.0";
  const server = app.listen(port, host, () => {
    const shown = host === "0.0.0.0" || host === "::" ? "localhost" : host;
    console.log(`[studio] Creative AI Studio is running at http://${shown}:${server.address().port}`);
  });
  applyTimeouts(server);
  const stop = () => server.close(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  return server;
}
