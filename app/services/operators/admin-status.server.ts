import { providerSummary } from "~/ai/providers.server";
import { formatBytes } from "~/common/bytes";
import { databaseEngine, openDatabase } from "~/lib/db/db.server";
import { within } from "~/lib/health.server";
import { providerKindOf } from "~/lib/observe/ai-observations.server";
import type { InstancesTable } from "~/lib/db/db-schema";
import type { Settings } from "~/lib/settings/env.server";
import { openFileStore } from "~/lib/storage/storage.server";
import { parseStorageUrl } from "~/lib/storage/storage-url.server";
import { recentInstances, INSTANCE_RECENT_MS } from "~/models/operators/instances.server";
import { activeSessionCount, liveShareCount, storageTotals, videoJobCounts } from "~/models/operators/status.server";
import { formatTable } from "./admin-shares.server";
import packageJson from "../../../package.json";

/**
 * `npm run admin -- status [--json]` (docs/operating.md): the studio at a glance, read from the
 * database and the store every instance shares, so it may run anywhere the settings reach them. The
 * dependencies (reached or not, which kind), the instances seen lately (their heartbeats), the
 * video queue, active sessions, storage used and live share links. Exit 1 when the database or the
 * store cannot be reached (what needs the database is then left out), 0 otherwise.
 */
type DependencyState = { state: "ok" } | { state: "unavailable"; reason: string };

export interface StatusReport {
  version: string;
  database: DependencyState & { engine: string };
  storage: DependencyState & { kind: string };
  ai: { test_mode: boolean; providers: Record<string, string> };
  /** Null: the database could not be read. */
  instances: InstancesTable[] | null;
  video_jobs: { by_status: Record<string, number>; queue_depth: number; oldest_waiting_seconds: number } | null;
  sessions: { active: number; people: number } | null;
  storage_used: { bytes: number; media_bytes: number; text_bytes: number; people: number } | null;
  share_links: { live: number } | null;
}

/** How long the store's check may take before it counts as out of reach. */
const STORE_CHECK_MS = 10_000;

const reasonOf = (error: unknown) => (error as Error)?.message || String(error);

async function dependency(check: () => Promise<unknown>): Promise<DependencyState> {
  try {
    await check();
    return { state: "ok" };
  } catch (error) {
    return { state: "unavailable", reason: reasonOf(error) };
  }
}

/** Reads everything the report says; the database's parts stay null when it cannot be reached. */
export async function readStatus(settings: Settings, now = new Date()): Promise<StatusReport> {
  const database = await dependency(() => openDatabase(settings));
  const storage = await dependency(async () => {
    // Its own instance id: opening the store clears only this command's temporary folder, never a server's.
    const store = await openFileStore({ ...settings, instanceId: `admin-${process.pid}` });
    if (store.probe && (await within((signal) => store.probe!(signal), STORE_CHECK_MS)) !== "ok")
      throw new Error(`no answer within ${STORE_CHECK_MS / 1000} s`);
  });
  let kind = "unknown";
  try {
    kind = parseStorageUrl(settings.storageUrl, settings.dataDir).kind;
  } catch {
    // The store's own failure above says why.
  }
  const ai = providerSummary();
  const providers = Object.fromEntries(Object.entries(ai.providers).map(([name, id]) => [name, providerKindOf(id)]));
  const report: StatusReport = {
    version: packageJson.version,
    database: { ...database, engine: databaseEngine(settings) },
    storage: { ...storage, kind },
    ai: { test_mode: ai.test_mode, providers },
    instances: null,
    video_jobs: null,
    sessions: null,
    storage_used: null,
    share_links: null,
  };
  if (database.state !== "ok") return report;
  const [instances, videoJobs, sessions, totals, live] = await Promise.all([
    recentInstances(INSTANCE_RECENT_MS, now),
    videoJobCounts(now),
    activeSessionCount(settings.refreshTokenDays, now),
    storageTotals(),
    liveShareCount(now),
  ]);
  return {
    ...report,
    instances: instances.map((instance) => ({
      id: instance.id,
      host: instance.host,
      pid: instance.pid,
      version: instance.version,
      started_at: instance.startedAt,
      seen_at: instance.seenAt,
      metrics_port: instance.metricsPort,
    })),
    video_jobs: {
      by_status: videoJobs.byStatus,
      queue_depth: videoJobs.queueDepth,
      oldest_waiting_seconds: Math.round(videoJobs.oldestWaitingSeconds),
    },
    sessions: { active: sessions.sessions, people: sessions.people },
    storage_used: {
      bytes: totals.mediaBytes + totals.textBytes,
      media_bytes: totals.mediaBytes,
      text_bytes: totals.textBytes,
      people: totals.people,
    },
    share_links: { live },
  };
}

const plural = (count: number, noun: string, nouns = `${noun}s`) => `${count} ${count === 1 ? noun : nouns}`;
const people = (count: number) => plural(count, "person", "people");
const time = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
const stateText = (dependency: DependencyState, kind: string) =>
  dependency.state === "ok" ? `ok (${kind})` : `unavailable (${kind}): ${dependency.reason}`;

/** The report as the terminal shows it. */
export function formatStatus(report: StatusReport): string {
  const ai = Object.entries(report.ai.providers).map(([capability, kind]) => `${capability} ${kind}`);
  const lines = [
    `Creative AI Studio ${report.version}`,
    "",
    `database      ${stateText(report.database, report.database.engine)}`,
    `storage       ${stateText(report.storage, report.storage.kind)}`,
    `AI providers  ${ai.join(", ")}${report.ai.test_mode ? " (video in test mode)" : ""}`,
  ];
  if (!report.instances || !report.video_jobs || !report.sessions || !report.storage_used || !report.share_links) {
    lines.push("", "The database cannot be reached: nothing more to report.");
    return lines.join("\n");
  }
  const instances = report.instances.map((instance) => [
    instance.id,
    instance.host,
    String(instance.pid),
    instance.version,
    time(instance.started_at),
    time(instance.seen_at),
    instance.metrics_port === null ? "off" : String(instance.metrics_port),
  ]);
  const { by_status: byStatus, queue_depth: queueDepth, oldest_waiting_seconds: oldest } = report.video_jobs;
  const unfinished = Object.values(byStatus).reduce((sum, count) => sum + count, 0);
  const statuses = Object.entries(byStatus).map(([status, count]) => `${status} ${count}`);
  const used = report.storage_used;
  const parts = `files ${formatBytes(used.media_bytes)}, texts ${formatBytes(used.text_bytes)}`;
  lines.push(
    "",
    `Instances seen in the last ${INSTANCE_RECENT_MS / 60_000} minutes: ${report.instances.length}`,
    ...(instances.length
      ? [formatTable(["id", "host", "pid", "version", "started (UTC)", "seen (UTC)", "metrics port"], instances)]
      : []),
    "",
    `Video jobs    ${unfinished} unfinished: ${statuses.join(", ")}`,
    `              ${queueDepth} waiting${queueDepth ? `, the oldest for ${oldest} s` : ""}`,
    `Sessions      ${plural(report.sessions.active, "active session")} of ${people(report.sessions.people)}`,
    `Storage used  ${formatBytes(used.bytes)} for ${people(used.people)} (${parts})`,
    `Share links   ${report.share_links.live} live`,
  );
  return lines.join("\n");
}

/** The command: `status` or `status --json` (one JSON object). Resolves the exit code. */
export async function statusCommand(
  args: string[],
  io: { out: (text: string) => void; err: (text: string) => void },
  settings: Settings,
): Promise<number> {
  const unknown = args.find((arg) => arg !== "--json");
  if (unknown !== undefined) {
    io.err(`admin status: unknown argument "${unknown}" (expected: status [--json])`);
    io.err("Run `npm run admin -- help` for the commands.");
    return 2;
  }
  const report = await readStatus(settings);
  io.out(args.includes("--json") ? JSON.stringify(report) : formatStatus(report));
  return report.database.state === "ok" && report.storage.state === "ok" ? 0 : 1;
}
