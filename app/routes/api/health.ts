import { providerSummary } from "~/ai/providers.server";
import { ensureVideoJobRunner } from "~/services/video-job-runner.server";
import { databaseEngine, databaseIsReachable } from "~/lib/db.server";
import { refuseMethod } from "~/lib/http/responder.server";
import { fileStoreKind } from "~/lib/storage.server";
import packageJson from "../../../package.json";

/**
 * GET /api/health: liveness, database reachability, the video job runner, and the AI providers:
 * test_mode is true while video runs on the offline renderer (the AI video screen's Test Mode badge);
 * `providers` names the provider of each capability. It also starts the job runner if the server
 * entry has not yet (a lazy start), so interrupted jobs are taken over as soon as anything checks.
 * `database_engine` names the database in use beside its status: "sqlite" (the embedded default) or
 * "postgres" (DATABASE_URL); `storage` the file store: "file" (the default) or "s3" (STORAGE_URL).
 */
export async function loader() {
  const database = (await databaseIsReachable()) ? "ok" : "unavailable";
  let jobRunner = "ok";
  try {
    await ensureVideoJobRunner();
  } catch (error) {
    console.error("[health] the video job runner did not start", error);
    jobRunner = "unavailable";
  }
  const healthy = database === "ok" && jobRunner === "ok";
  const ai = providerSummary();
  return Response.json(
    {
      status: healthy ? "ok" : "degraded",
      test_mode: ai.test_mode,
      providers: ai.providers,
      database,
      database_engine: databaseEngine(),
      storage: fileStoreKind() ?? "file",
      job_runner: jobRunner,
      version: packageJson.version,
    },
    { status: healthy ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}

export const action = refuseMethod("GET");
