import os from "node:os";
import { logOutage, outageOf } from "~/lib/outage.server";
import { env } from "~/lib/settings/env.server";
import { instanceIdFor, SWEEP_GRACE_MS } from "~/lib/storage/storage.server";
import { INSTANCE_HEARTBEAT_MS, noteInstanceSeen, pruneInstances } from "~/models/operators/instances.server";
import { sweepOrphanMedia } from "~/models/media/media.server";
import { pruneStaleReservations } from "~/models/media/storage-quota.server";
import { tidySearchIndex } from "~/models/content/content-search-upkeep.server";
import { pruneAiRequests } from "~/models/ai-usage.server";
import { pruneFeedbackAttempts } from "~/models/operators/feedback.server";
import { pruneExpiredInvitations } from "~/models/accounts/invitation.server";
import { pruneLoginAttempts, pruneRegistrationAttempts } from "~/models/accounts/login-attempt.server";
import { pruneEndedSessions } from "~/models/accounts/sessions.server";
import { clearSpentSuccessors, deleteExpiredRefreshTokens } from "~/models/accounts/token-pair.server";
import { pruneTransientSpeech, TRANSIENT_SPEECH_TTL_MS } from "~/models/media/transient-speech.server";
import packageJson from "../../../package.json";

/**
 * The schedules of the server's housekeeping, started and stopped by app/services/operators/background.server.ts
 * (never on import):
 * - the media sweep (stored files without a row, stale temporary files): at start, once more just after
 *   the grace period (what a restart interrupted is too young for the first sweep; without this it
 *   would wait for the hourly one) and hourly. The grace period keeps uploads in flight on another
 *   instance sharing the storage safe;
 * - pruning of rows that no longer count (expired refresh tokens, login and registration attempts
 *   older than their window, storage reservations gone stale or left by this instance's previous
 *   process, AI requests older than a day): at start and hourly, with a bounded merge of SQLite's
 *   search index (content-search-upkeep.server.ts);
 * - unkept speech past its expiry (its row, then its bytes; docs/decisions/0042): at start and every
 *   SPEECH_PRUNE_INTERVAL_MS, so an expired clip's bytes stay on the store for minutes, not an hour;
 * - the instance's heartbeat (its row in `instances`, for `npm run admin -- status`): at start and
 *   every INSTANCE_HEARTBEAT_MS; rows of instances gone for a week go with the hourly pruning.
 * A failure is logged and retried next time; a run that failed because the database or the store was
 * out of reach (it rejects with the "unavailable" error) is tried again soon instead, backing off from
 * 1 s to at most 5 s, so the work resumes within seconds of the dependency's return (decision 0049).
 * The timers are unref'd: they never keep a process alive.
 */
export const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;
/** The sweep after the start's: just past the grace period, so what a restart interrupted is old enough. */
export const SWEEP_AFTER_START_MS = SWEEP_GRACE_MS + 60_000;

/** Half the unkept speech's lifetime: a clip's bytes go at most 15 minutes after it was spoken. */
export const SPEECH_PRUNE_INTERVAL_MS = TRANSIENT_SPEECH_TTL_MS / 2;

/** Runs `sweep` now, after the grace period and hourly; the timers never keep the process alive. Returns a stop. */
export function scheduleSweeps(sweep: () => void): () => void {
  sweep();
  const once = setTimeout(sweep, SWEEP_AFTER_START_MS).unref();
  const hourly = setInterval(sweep, HOUSEKEEPING_INTERVAL_MS).unref();
  return () => {
    clearTimeout(once);
    clearInterval(hourly);
  };
}

/** The backoff between tries of a run the database or the store interrupted: doubling from the first to the last. */
export const OUTAGE_RETRY_MS = { first: 1000, max: 5000 };

/** Logs a failure, except an outage: that is rethrown as "unavailable" for the schedule to try again soon. */
function logUnlessOutage(message: string) {
  return (error: unknown) => {
    const outage = outageOf(error);
    if (outage) throw outage;
    console.error(message, error);
  };
}

export function sweepMediaQuietly(): Promise<void> {
  return sweepOrphanMedia()
    .then(({ removedFiles, removedTemporary }) => {
      if (removedFiles || removedTemporary) {
        console.log(`[storage] swept ${removedFiles} orphaned file(s) and ${removedTemporary} stale temporary file(s)`);
      }
    })
    .catch(logUnlessOutage("[storage] sweep failed"));
}

/**
 * Rows that no longer count for anything: expired refresh tokens, ended sessions, successor pairs past their
 * window, login, registration and feedback attempts older than their window, invitations a day past their expiry.
 */
export async function pruneStaleRecords(now = new Date()): Promise<void> {
  await deleteExpiredRefreshTokens(now);
  await pruneEndedSessions();
  await clearSpentSuccessors(now);
  await pruneLoginAttempts(now);
  await pruneRegistrationAttempts(now);
  await pruneFeedbackAttempts(now);
  await pruneExpiredInvitations(now);
  await pruneInstances(undefined, now);
}

/** The hourly pruning; never rejects but for an outage (rethrown as "unavailable" for the schedule's retry). */
export function pruneQuietly(now = new Date()): Promise<void> {
  return Promise.all([
    pruneStaleRecords(now),
    pruneStaleReservations(now.getTime()),
    pruneAiRequests(now),
    tidySearchIndex(),
  ])
    .then(() => {})
    .catch(logUnlessOutage("[studio] housekeeping failed"));
}

export function pruneSpeechQuietly(): Promise<void> {
  return pruneTransientSpeech()
    .then((removed) => {
      if (removed) console.log(`[speech] removed ${removed} expired unkept clip(s)`);
    })
    .catch(logUnlessOutage("[speech] pruning unkept speech failed"));
}

/** When this process started (not this module: a dev reload evaluates it again). */
const STARTED_AT = new Date(Date.now() - process.uptime() * 1000).toISOString();

/** This instance is running: its row in `instances` moves (never rejects but for an outage). */
export function noteThisInstanceQuietly(): Promise<void> {
  return noteInstanceSeen({
    id: instanceIdFor(env),
    host: os.hostname(),
    pid: process.pid,
    version: packageJson.version,
    startedAt: STARTED_AT,
    metricsPort: env.metricsPort ?? null,
  }).catch(logUnlessOutage("[studio] the instance heartbeat failed"));
}

export interface HousekeepingJobs {
  sweep: () => Promise<void>;
  prune: () => Promise<void>;
  /** Unkept speech past its expiry (left out: not scheduled). */
  pruneSpeech?: () => Promise<void>;
  /** The instance's heartbeat (left out: not scheduled). */
  heartbeat?: () => Promise<void>;
}

export interface Housekeeping {
  /** Clears the timers and waits for a run in progress, so the database can close after it. */
  stop(): Promise<void>;
}

/**
 * Runs the sweep (scheduleSweeps), the pruning (hourly) and the unkept speech's pruning (every
 * SPEECH_PRUNE_INTERVAL_MS) now and on their schedules (jobs replaceable for tests).
 */
export function startHousekeeping(
  jobs: HousekeepingJobs = {
    sweep: sweepMediaQuietly,
    prune: pruneQuietly,
    pruneSpeech: pruneSpeechQuietly,
    heartbeat: noteThisInstanceQuietly,
  },
): Housekeeping {
  const inFlight = new Set<Promise<void>>();
  const retries = new Set<NodeJS.Timeout>();
  let stopped = false;
  const tracked = (job: () => Promise<void>) => {
    let delay = OUTAGE_RETRY_MS.first;
    const run = () => {
      if (stopped) return;
      const running = job()
        .then(
          () => {
            delay = OUTAGE_RETRY_MS.first;
          },
          (error: unknown) => {
            // Only an outage comes here (the jobs log anything else): try again soon, backing off.
            const outage = outageOf(error);
            if (outage) logOutage(outage);
            else console.error("[studio] housekeeping failed", error);
            if (stopped) return;
            const retry = setTimeout(() => {
              retries.delete(retry);
              run();
            }, delay).unref();
            retries.add(retry);
            delay = Math.min(delay * 2, OUTAGE_RETRY_MS.max);
          },
        )
        .finally(() => inFlight.delete(running));
      inFlight.add(running);
    };
    return run;
  };
  const stopSweeps = scheduleSweeps(tracked(jobs.sweep));
  const prune = tracked(jobs.prune);
  const pruning = setInterval(prune, HOUSEKEEPING_INTERVAL_MS);
  pruning.unref();
  prune();
  let speechPruning: NodeJS.Timeout | undefined;
  if (jobs.pruneSpeech) {
    const pruneSpeech = tracked(jobs.pruneSpeech);
    speechPruning = setInterval(pruneSpeech, SPEECH_PRUNE_INTERVAL_MS).unref();
    pruneSpeech();
  }
  let beating: NodeJS.Timeout | undefined;
  if (jobs.heartbeat) {
    const beat = tracked(jobs.heartbeat);
    beating = setInterval(beat, INSTANCE_HEARTBEAT_MS).unref();
    beat();
  }
  return {
    async stop() {
      stopped = true;
      stopSweeps();
      clearInterval(pruning);
      clearInterval(speechPruning);
      clearInterval(beating);
      for (const retry of retries) clearTimeout(retry);
      await Promise.allSettled([...inFlight]);
    },
  };
}
