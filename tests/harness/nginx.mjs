// @ts-check
// A throwaway nginx on loopback in front of several app instances (round robin), for
// `npm run test:cluster`, `npm run load` and `npm run faults`. Debian's nginx package; the config,
// logs and temporary files live in a temporary folder removed on stop. NGINX_ACCESS_LOG=1 adds an
// access log there, a line per request with its client connection (whether a request that got no
// answer followed another on the same connection), and keeps the folder on stop.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** The nginx binary: NGINX_PATH, then the PATH and Debian's /usr/sbin. */
export function findNginx() {
  const candidates = /** @type {string[]} */ (
    [process.env.NGINX_PATH, "/usr/sbin/nginx", "/usr/bin/nginx"].filter(Boolean)
  );
  for (const candidate of candidates) if (fs.existsSync(candidate)) return candidate;
  const which = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  return null;
}

/**
 * A free TCP port on 127.0.0.1.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** Whether NGINX_ACCESS_LOG asks for the diagnostic access log. */
const accessLogWanted = () => process.env.NGINX_ACCESS_LOG === "1";

/** @param {{ prefix: string; port: number; upstreams: string[] }} options */
function config({ prefix, port, upstreams }) {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  return `
${isRoot ? "user root root;" : ""}
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
${
  accessLogWanted()
    ? `  log_format connections '$connection $connection_requests $request_method $uri $status $request_length $request_completion';
  access_log ${prefix}/access.log connections;`
    : "  access_log off;"
}
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  # Connections per client address (docs/operating.md's example allows 32; here every client of the load test and
  # the cluster tests is 127.0.0.1, so the limit is the test's concurrency with room to spare).
  limit_conn_zone $binary_remote_addr zone=per_address:10m;
  limit_conn_status 429;
  upstream studio {
${upstreams.map((upstream) => `    server ${upstream} max_fails=0;`).join("\n")}
  }
  server {
    listen 127.0.0.1:${port};
    limit_conn per_address 512;
    # A client that sends nothing for this long while its headers or body arrive is cut (408); the
    # app holds the body to its own deadline (other requests) or least rate (uploads) within that.
    client_header_timeout 30s;
    client_body_timeout 60s;
    # The app bounds bodies itself (413 with a detail); uploads stream through, not buffered to disk.
    client_max_body_size 0;
    proxy_request_buffering off;
    proxy_buffering off;
    proxy_http_version 1.1;
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_set_header X-Forwarded-Host $http_host;
    proxy_set_header X-Request-Id $request_id;
    proxy_read_timeout 300s;
    proxy_send_timeout 300s;
    # max_fails=0: an instance is never marked down (a refused connect on loopback costs nothing), so a
    # failure seen on the live instance cannot leave "no live upstreams" while the other restarts.
    # A new connection per request (no upstream keepalive): when an instance dies, a request meets a
    # refused connect, never a dead kept-alive socket, and goes to the other instance even when it is a
    # POST (nginx only retries a non-idempotent request that it has not sent yet).
    proxy_next_upstream error timeout http_502;
    location / { proxy_pass http://studio; }
  }
}
`;
}

/**
 * Starts nginx on a free loopback port in front of `upstreams` ("127.0.0.1:3001", ...). Returns its
 * URL, errorLog, accessLog (null unless NGINX_ACCESS_LOG=1) and stop(). Throws a clear error when
 * nginx is not installed.
 * @param {{ upstreams: string[]; port?: number }} options
 */
export async function startNginx({ upstreams, port }) {
  const binary = findNginx();
  if (!binary) throw new Error("nginx is not installed (Debian: apt-get install nginx)");
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "studio-nginx-"));
  const listenPort = port ?? (await freePort());
  const file = path.join(prefix, "nginx.conf");
  fs.writeFileSync(file, config({ prefix, port: listenPort, upstreams }));
  const child = spawn(binary, ["-p", prefix, "-c", file, "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const url = `http://127.0.0.1:${listenPort}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      const log = fs.existsSync(path.join(prefix, "error.log"))
        ? fs.readFileSync(path.join(prefix, "error.log"), "utf8")
        : "";
      throw new Error(`nginx exited with ${child.exitCode}: ${stderr}${log}`);
    }
    const open = await new Promise((resolve) => {
      const socket = net.connect(listenPort, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${url}: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    /** Its error log (warn and above), e.g. to show what it saw during a fault. */
    errorLog: path.join(prefix, "error.log"),
    /** Its access log (`$connection $connection_requests $request_method $uri $status ...`), when asked for. */
    accessLog: accessLogWanted() ? path.join(prefix, "access.log") : null,
    /** @returns {Promise<void>} */
    stop: () =>
      new Promise((resolve) => {
        const done = () => {
          if (accessLogWanted()) console.error(`[nginx] access log kept: ${path.join(prefix, "access.log")}`);
          else fs.rmSync(prefix, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once("exit", done);
        child.kill("SIGQUIT");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      }),
  };
}
