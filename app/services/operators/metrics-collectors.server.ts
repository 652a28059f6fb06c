import { providerSummary } from "~/ai/providers.server";
import { databasePoolStats } from "~/lib/db/db.server";
import { dependencyHealth, within } from "~/lib/health.server";
import type { MetricsCollectors, VideoJobCounts } from "~/lib/observe/metrics.server";
import { videoJobCounts } from "~/models/operators/status.server";

/**
 * What a Prometheus scrape reads of the studio beside the request metrics (app/lib/observe/metrics.server.ts):
 * the dependencies as GET /api/health sees them (one probe a second however many ask), the database
 * pool, and the video queue. The queue is one query, bounded by the health check's timeout: a
 * database out of reach leaves the scrape without video gauges, never waiting on it.
 */
export const metricsCollectors: MetricsCollectors = {
  async dependencies() {
    const health = await dependencyHealth();
    return { database: health.database === "ok", storage: health.storage === "ok" };
  },
  databasePool: () => databasePoolStats(),
  async videoJobs() {
    let counts: VideoJobCounts | null = null;
    const state = await within(async () => {
      counts = await videoJobCounts();
    });
    return state === "ok" ? counts : null;
  },
  aiProviders: () =>
    Object.entries(providerSummary().providers).map(([capability, provider]) => ({ capability, provider })),
};
