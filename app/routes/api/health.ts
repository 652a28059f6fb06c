import { sql } from "kysely";
import { providerSummary } from "~/ai/providers.server";
import { ensureVideoJobRunner } from "~/ai/video-job-runner.server";
import { db } from "~/lib/db.server";
import packageJson from "../../../package.json";

/**
 * GET /api/health: liveness, database reachability, and the AI providers: test_mode is true while
 * video runs on the offline renderer (the AI video screen's Test Mode badge); `providers` names the
 * provider of each capability. It also starts the video job runner, so interrupted jobs are taken
 * over as soon as anything checks on the server.
 */
export async function loader() {
  let database = "ok";
  try {
    await sql`select 1`.execute(db);
    await ensureVideoJobRunner();
  } catch {
    database = "unavailable";
  }
  const ai = providerSummary();
  return Response.json(
    {
      status: database === "ok" ? "ok" : "degraded",
      test_mode: ai.test_mode,
      providers: ai.providers,
      database,
      version: packageJson.version,
    },
    { status: database === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
