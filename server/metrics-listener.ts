// GET /metrics for Prometheus on a port of its own (METRICS_PORT, on METRICS_HOST: loopback unless
// told otherwise), never on the public one: the metrics tell how the studio is used. Unset, nothing
// listens and the app loads no metrics code (docs/decisions/0087).
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { LoadedBuild } from "./app-build";

const NOT_FOUND = "Not Found: the metrics are at GET /metrics\n";

/** Starts keeping the metrics and listens; resolves null when METRICS_PORT is unset. */
export async function startMetricsListener({
  settings,
  observability,
}: Pick<LoadedBuild, "settings" | "observability">): Promise<http.Server | null> {
  const { metricsPort, metricsHost } = settings;
  if (metricsPort === null) return null;
  await observability.enableMetrics();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, {
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Length": Buffer.byteLength(NOT_FOUND),
      });
      res.end(NOT_FOUND);
      return;
    }
    observability.metricsText().then(
      (text) => {
        res.writeHead(200, {
          "Content-Type": observability.metricsContentType(),
          "Content-Length": Buffer.byteLength(text),
          "Cache-Control": "no-store",
        });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      (error: unknown) => {
        console.error("[studio] the metrics could not be collected", error);
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("The metrics could not be collected\n");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(metricsPort, metricsHost, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  console.log(`[studio] metrics for Prometheus at http://${host}:${port}/metrics`);
  return server;
}
