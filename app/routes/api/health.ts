import { providerSummary } from "~/ai/providers.server";
import { ensureVideoJobRunner } from "~/services/video-jobs/video-job-runner.server";
import { databaseEngine } from "~/lib/db/db.server";
import { dependencyHealth } from "~/lib/health.server";
import { refuseMethod } from "~/lib/http/responder.server";
import { RETRY_AFTER_SECONDS } from "~/lib/outage.server";
import { fileStoreKind } from "~/lib/storage/storage.server";
import packageJson from "../../../package.json";

/**
 * GET /api/health: liveness, whether the database and the file store answer (each within a short
 * timeout, the answer shared for a second: app/lib/health.server.ts), the video job runner, and the
 * AI providers: test_mode is true while video runs on the offline renderer (the AI video screen's
 * Test Mode badge); `providers` names the kind of provider of each capability ("openai-compatible"),
 * never a configured model: anyone may ask (providerKind). It also starts the job runner
 * if the server entry has not yet (a lazy start), so interrupted jobs are taken over as soon as
 * anything checks. `database` and `storage` are "ok" or "unavailable"; `database_engine` names the
 * database ("sqlite", the embedded default, or "postgres": DATABASE_URL) and `storage_kind` the file
 * store ("file", the default, or "s3": STORAGE_URL). Anything down: 503 "degraded" with Retry-After.
 */
export async function loader() {
  const { database, storage } = await dependencyHealth();
  let jobRunner = "ok";
  try {
    await ensureVideoJobRunner();
  } catch (error) {
    console.error("[health] the video job runner did not start", error);
    jobRunner = "unavailable";
  }
  const healthy = database === "ok" && storage === "ok" && jobRunner === "ok";
  const ai = providerSummary();
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if (!healthy) headers["Retry-After"] = String(RETRY_AFTER_SECONDS);
  return Response.json(
    {
      status: healthy ? "ok" : "degraded",
      test_mode: ai.test_mode,
      providers: ai.providers,
      database,
      database_engine: databaseEngine(),
      storage,
      storage_kind: fileStoreKind() ?? "file",
      job_runner: jobRunner,
      version: packageJson.version,
    },
    { status: healthy ? 200 : 503, headers },
  );
}

export const action = refuseMethod("GET");
