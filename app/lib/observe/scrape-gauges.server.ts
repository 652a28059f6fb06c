import type * as PromClient from "prom-client";

/**
 * The metrics read when Prometheus scrapes (metrics.server.ts keeps the rest as requests go): the
 * dependencies, the database pool and the video queue. What they read of the domain comes from above
 * this floor (app/services/operators/metrics-collectors.server.ts); the database's answers are bounded
 * by the health check's timeout there and kept SCRAPE_CACHE_MS here, so a scrape costs the database at
 * most one query every few seconds however many Prometheus servers ask.
 */
export const SCRAPE_CACHE_MS = 5_000;

/** The video queue as one query sees it (every instance's jobs: aggregate with max, not sum). */
export interface VideoJobCounts {
  byStatus: Record<string, number>;
  queueDepth: number;
  /** How long the oldest job not yet picked up has waited; 0 with none waiting. */
  oldestWaitingSeconds: number;
}

/** The PostgreSQL pool's connections (SQLite has none). */
export interface PoolStats {
  idle: number;
  total: number;
  max: number;
  waiting: number;
}

export interface MetricsCollectors {
  dependencies(): Promise<{ database: boolean; storage: boolean }>;
  databasePool(): PoolStats | null;
  /** Null when the database does not answer in time: the scrape then has no video gauges. */
  videoJobs(): Promise<VideoJobCounts | null>;
  /** Each capability's provider, up until a call says otherwise. */
  aiProviders(): { capability: string; provider: string }[];
}

type Prom = typeof PromClient;

/** One scrape's answer shared by the gauges that read it and reused for `ms`; a failure is not kept. */
function cachedFor<T>(ms: number, read: () => Promise<T>): () => Promise<T> {
  let kept: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (kept && performance.now() - kept.at < ms) return kept.value;
    const value = read();
    const entry = { at: performance.now(), value };
    kept = entry;
    value.catch(() => {
      if (kept === entry) kept = null;
    });
    return value;
  };
}

/** Registers the scrape-time gauges; answers studio_dependency_up, whose AI series the calls set. */
export function registerScrapeGauges(
  prom: Prom,
  registers: PromClient.Registry[],
  collectors: MetricsCollectors,
): PromClient.Gauge {
  const pool = { db_client_connection_pool_name: "studio" };
  const videoJobs = cachedFor(SCRAPE_CACHE_MS, () => collectors.videoJobs().catch(() => null));
  const gaugeOf = <T>(
    read: () => T | null | Promise<T | null>,
    name: string,
    help: string,
    labelNames: string[],
    set: (gauge: PromClient.Gauge, value: T) => void,
  ) =>
    new prom.Gauge({
      name,
      help,
      labelNames,
      registers,
      async collect() {
        const value = await read();
        this.reset();
        if (value) set(this, value);
        // Nothing to say is no series: reset leaves an unlabelled gauge at 0, which would be a lie.
        else this.remove({});
      },
    });
  const poolStats = () => collectors.databasePool();

  gaugeOf(
    poolStats,
    "db_client_connection_count",
    "Database connections in the pool, by state (idle, used).",
    ["db_client_connection_pool_name", "db_client_connection_state"],
    (gauge, stats) => {
      gauge.set({ ...pool, db_client_connection_state: "idle" }, stats.idle);
      gauge.set({ ...pool, db_client_connection_state: "used" }, stats.total - stats.idle);
    },
  );
  gaugeOf(
    poolStats,
    "db_client_connection_max",
    "The most connections the pool may open.",
    Object.keys(pool),
    (gauge, stats) => gauge.set(pool, stats.max),
  );
  gaugeOf(
    poolStats,
    "db_client_connection_pending_requests",
    "Queries waiting for a pool connection.",
    Object.keys(pool),
    (gauge, stats) => gauge.set(pool, stats.waiting),
  );
  gaugeOf(
    videoJobs,
    "studio_video_jobs",
    "Unfinished AI video jobs of every instance, by status.",
    ["status"],
    (gauge, counts) => {
      for (const [status, count] of Object.entries(counts.byStatus)) gauge.set({ status }, count);
    },
  );
  gaugeOf(
    videoJobs,
    "studio_video_queue_depth",
    "AI video jobs waiting for a worker, every instance's.",
    [],
    (gauge, counts) => gauge.set(counts.queueDepth),
  );
  gaugeOf(
    videoJobs,
    "studio_video_queue_oldest_waiting_seconds",
    "How long the oldest waiting AI video job has waited.",
    [],
    (gauge, counts) => gauge.set(counts.oldestWaitingSeconds),
  );
  return new prom.Gauge({
    name: "studio_dependency_up",
    help: "Whether a dependency answers: database and storage as the health check sees them, each AI provider by its last call.",
    labelNames: ["dependency", "capability", "provider"],
    registers,
    async collect() {
      const health = await collectors.dependencies().catch(() => ({ database: false, storage: false }));
      this.set({ dependency: "database" }, health.database ? 1 : 0);
      this.set({ dependency: "storage" }, health.storage ? 1 : 0);
    },
  });
}
