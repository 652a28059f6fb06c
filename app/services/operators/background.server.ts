import { closeDatabase, openDatabase } from "~/lib/db/db.server";
import { closeFileStore, openFileStore } from "~/lib/storage/storage.server";
import { startHousekeeping, type Housekeeping } from "./housekeeping.server";
import { startVideoJobRunner, stopVideoJobRunner } from "~/services/video-jobs/video-job-runner.server";

/**
 * The one place where the server's work outside requests starts and stops (docs/decisions/0014): the
 * media sweep and the pruning (housekeeping.server.ts) and the video job runner. Nothing here runs on
 * import: the front door (server/index.ts) calls `startApp()` (through the build's entry module) before it listens
 * and `stopApp()` after the requests in flight have finished or been cut off.
 */

// On globalThis so a dev-server module reload does not start the schedules a second time.
const holder = globalThis as { studioBackgroundWork?: Housekeeping };

/** Starts the housekeeping schedules and the video job runner (which takes over interrupted jobs). */
export function startBackgroundWork(): void {
  if (holder.studioBackgroundWork) return;
  holder.studioBackgroundWork = startHousekeeping();
  startVideoJobRunner();
}

/** Stops the schedules and the runner (its job in hand resumes on the next start); waits for both. */
export async function stopBackgroundWork(): Promise<void> {
  const housekeeping = holder.studioBackgroundWork;
  holder.studioBackgroundWork = undefined;
  await Promise.all([housekeeping?.stop(), stopVideoJobRunner()]);
}

let started: Promise<void> | null = null;

/**
 * The app's start: open the file store STORAGE_URL names (a bad one stops the start; this instance's
 * temporary folder is cleared), open and migrate the database, then the background work. Idempotent.
 */
export function startApp(): Promise<void> {
  started ??= (async () => {
    await openFileStore();
    await openDatabase();
    startBackgroundWork();
  })().catch((error) => {
    started = null;
    throw error;
  });
  return started;
}

/** The app's stop, in order: the background work (runner included), then the database and the file store. */
export async function stopApp(): Promise<void> {
  started = null;
  await stopBackgroundWork();
  await closeDatabase();
  closeFileStore();
}
