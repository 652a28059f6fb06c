// The build's client files (hashed assets, favicon, public/static), served by the front door
// (scripts/server.mjs) before anything reaches React Router.
//
// The folder is read once at start: every file's headers are prepared then, small files are kept in
// memory, and the brotli/gzip copies the build writes beside compressible files (vite.config.ts,
// `precompress`) are sent to browsers that accept them, so no request pays for a stat, a MIME lookup
// or compression. Hashed files under /assets never change: they are cached for a year, `immutable`;
// the others for an hour. Conditional requests (ETag, Last-Modified) answer 304; a single byte range
// answers 206 (audio players ask for ranges); only GET and HEAD are served, anything else falls through.
import fs from "node:fs";
import path from "node:path";
import { acceptedEncodings } from "./accept-encoding.mjs";

/** Files up to this size are answered from memory; larger ones (music demos) are streamed from disk. */
const IN_MEMORY_MAX = 512 * 1024;

const TYPES = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".m4a": "audio/mp4",
  ".ogg": "audio/ogg",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".wasm": "application/wasm",
};

/** The encodings the build may have written beside a file, best first. */
const VARIANTS = [
  { encoding: "br", suffix: ".br" },
  { encoding: "gzip", suffix: ".gz" },
];

function* walk(folder) {
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

function body(file, size) {
  return size <= IN_MEMORY_MAX ? fs.readFileSync(file) : null;
}

/**
 * Reads `clientDir` and returns a Map from URL path (`/assets/x-123.js`) to what answering it takes.
 * `extraHeaders` go on every answer (nosniff, Referrer-Policy).
 */
export function indexStaticFiles(clientDir, extraHeaders = {}) {
  const index = new Map();
  if (!fs.existsSync(clientDir)) return index;
  const files = new Set(walk(clientDir));
  for (const file of files) {
    if (VARIANTS.some(({ suffix }) => file.endsWith(suffix) && files.has(file.slice(0, -suffix.length)))) continue;
    const stat = fs.statSync(file);
    const urlPath = "/" + path.relative(clientDir, file).split(path.sep).join("/");
    const hashed = urlPath.startsWith("/assets/");
    const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    const headers = {
      "Content-Type": TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream",
      "Cache-Control": hashed ? "public, max-age=31536000, immutable" : "public, max-age=3600",
      "Last-Modified": stat.mtime.toUTCString(),
      ETag: etag,
      ...extraHeaders,
    };
    const variants = [];
    for (const { encoding, suffix } of VARIANTS) {
      if (!files.has(file + suffix)) continue;
      const size = fs.statSync(file + suffix).size;
      if (size < stat.size) variants.push({ encoding, file: file + suffix, size, body: body(file + suffix, size) });
    }
    if (variants.length) headers.Vary = "Accept-Encoding";
    index.set(urlPath, { file, size: stat.size, mtime: Math.floor(stat.mtimeMs / 1000) * 1000, etag, headers, variants, body: body(file, stat.size) });
  }
  return index;
}

/** The best of the file's compressed copies the request accepts, or null. */
function chooseVariant(entry, acceptEncoding) {
  if (entry.variants.length === 0) return null;
  for (const encoding of acceptedEncodings(acceptEncoding)) {
    const variant = entry.variants.find((candidate) => candidate.encoding === encoding);
    if (variant) return variant;
  }
  return null;
}

function isFresh(req, entry) {
  const noneMatch = req.headers["if-none-match"];
  if (noneMatch) {
    return noneMatch.split(",").some((tag) => {
      const value = tag.trim();
      return value === "*" || value === entry.etag || value === entry.etag.slice(2);
    });
  }
  const since = Date.parse(req.headers["if-modified-since"] ?? "");
  return Number.isFinite(since) && entry.mtime <= since;
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` within `size`: {start, end}; null for none; "invalid" when it cannot be met. */
function parseRange(header, size) {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null; // several ranges or another unit: the whole file
  let start;
  let end;
  if (match[1] === "") {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) return "invalid";
  return { start, end };
}

/**
 * Answers `req` from the index when it names a client file and is a GET or HEAD; returns whether it
 * did (otherwise the request goes on to the app).
 */
export function serveStaticFile(index, req, res, pathname) {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const entry = index.get(pathname);
  if (!entry) return false;
  for (const [name, value] of Object.entries(entry.headers)) res.setHeader(name, value);
  if (isFresh(req, entry)) {
    res.statusCode = 304;
    res.removeHeader("Content-Type");
    res.end();
    return true;
  }
  const variant = chooseVariant(entry, req.headers["accept-encoding"]);
  if (variant) {
    res.setHeader("Content-Encoding", variant.encoding);
    return send(req, res, variant.body, variant.file, 0, variant.size - 1, variant.size);
  }
  res.setHeader("Accept-Ranges", "bytes");
  const ifRange = req.headers["if-range"];
  const range = ifRange && ifRange !== entry.etag && Date.parse(ifRange) !== entry.mtime ? null : parseRange(req.headers.range, entry.size);
  if (range === "invalid") {
    res.statusCode = 416;
    res.setHeader("Content-Range", `bytes */${entry.size}`);
    res.removeHeader("Content-Type");
    res.end();
    return true;
  }
  if (range) {
    res.statusCode = 206;
    res.setHeader("Content-Range", `bytes ${range.start}-${range.end}/${entry.size}`);
    return send(req, res, entry.body, entry.file, range.start, range.end, entry.size);
  }
  return send(req, res, entry.body, entry.file, 0, entry.size - 1, entry.size);
}

function send(req, res, buffer, file, start, end, size) {
  res.setHeader("Content-Length", end - start + 1);
  if (req.method === "HEAD") {
    res.end();
    return true;
  }
  if (buffer) {
    res.end(start === 0 && end === size - 1 ? buffer : buffer.subarray(start, end + 1));
    return true;
  }
  const stream = fs.createReadStream(file, { start, end });
  stream.on("error", () => res.destroy());
  res.once("close", () => stream.destroy());
  stream.pipe(res);
  return true;
}
