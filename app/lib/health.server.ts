import { databaseIsReachable } from "./db/db.server";
import { fileStore } from "./storage/storage.server";

/**
 * Whether the database and the file store answer now (GET /api/health, decision 0049). Each is asked
 * with a short timeout, and one answer serves every check for HEALTH_CACHE_MS: a flood of health
 * checks shares one probe in flight and then its result, so it costs the dependencies nothing more.
 */
export type DependencyState = "ok" | "unavailable";
export interface DependencyHealth {
  database: DependencyState;
  storage: DependencyState;
}

export const HEALTH_PROBE_TIMEOUT_MS = 1500;
export const HEALTH_CACHE_MS = 1000;

/** "ok" when `check` resolves within `timeoutMs`; "unavailable" when it rejects, returns false or takes longer. */
export async function within(
  check: (signal: AbortSignal) => Promise<unknown>,
  timeoutMs = HEALTH_PROBE_TIMEOUT_MS,
): Promise<DependencyState> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`no answer within ${timeoutMs} ms`));
      resolve(false);
    }, timeoutMs);
  });
  try {
    const answer = await Promise.race([check(controller.signal), timeout]);
    return answer === false ? "unavailable" : "ok";
  } catch {
    return "unavailable";
  } finally {
    clearTimeout(timer);
  }
}

let cached: { at: number; health: DependencyHealth } | null = null;
let inFlight: Promise<DependencyHealth> | null = null;

/** The dependencies' health, at most HEALTH_CACHE_MS old; concurrent callers share one probe. */
export function dependencyHealth(): Promise<DependencyHealth> {
  if (cached && Date.now() - cached.at < HEALTH_CACHE_MS) return Promise.resolve(cached.health);
  inFlight ??= (async () => {
    const [database, storage] = await Promise.all([
      within(() => databaseIsReachable()),
      within((signal) => fileStore.probe!(signal)),
    ]);
    const health = { database, storage };
    cached = { at: Date.now(), health };
    return health;
  })().finally(() => {
    inFlight = null;
  });
  return inFlight;
}
