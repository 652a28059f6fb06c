import { sql } from "kysely";
import { db } from "~/lib/db.server";
import packageJson from "../../../package.json";

/** GET /api/health: liveness, database reachability, and whether AI runs on the offline test providers. */
export async function loader() {
  let database = "ok";
  try {
    await sql`select 1`.execute(db);
  } catch {
    database = "unavailable";
  }
  return Response.json(
    {
      status: database === "ok" ? "ok" : "degraded",
      // No remote video provider exists yet, so every generation runs in test mode.
      test_mode: true,
      database,
      version: packageJson.version,
    },
    { status: database === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
