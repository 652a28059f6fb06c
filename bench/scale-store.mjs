// Where `npm run bench -- scale` writes its seed and moves a person's content version: the server's
// SQLite file, or its PostgreSQL database (decision 0079). Rows go in batches, each one statement
// (prepared on SQLite, arrays unnested on PostgreSQL), all in one transaction. Nothing runs on import.
import Database from "better-sqlite3";
import pg from "pg";
import { preciseCpuMs } from "./browser.mjs";

const PIECE_COLUMNS = "id, user_id, title, body, pinned, created_at, updated_at";
const FILE_COLUMNS =
  "id, user_id, kind, name, content_type, size, created_at, updated_at, prompt, provenance, width, height";

/** The SQLite file the server uses: its database work is the server's own CPU, so none is counted apart. */
export function sqliteStore(file) {
  const sqlite = new Database(file);
  sqlite.pragma("busy_timeout = 5000");
  const piece = sqlite.prepare(`INSERT INTO content_items (${PIECE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const media = sqlite.prepare(`INSERT INTO media_files (${FILE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const bump = sqlite.prepare("UPDATE users SET content_version = content_version + 1 WHERE id = ?");
  return {
    engine: "SQLite",
    begin: async () => sqlite.exec("BEGIN"),
    commit: async () => sqlite.exec("COMMIT"),
    insertPieces: async (rows) => rows.forEach((row) => piece.run(...row)),
    insertFiles: async (rows) => rows.forEach((row) => media.run(...row)),
    bump: async (userId) => bump.run(userId),
    // Statistics, and the search index merged as the server's hourly upkeep leaves it
    // (app/models/content/content-search-upkeep.server.ts): the seed writes a person's whole text at once,
    // which leaves FTS5 segments the upkeep would have merged over the months of writing it stands for.
    analyze: async () => {
      sqlite.exec("ANALYZE");
      sqlite.exec("INSERT INTO content_items_search(content_items_search) VALUES ('optimize')");
    },
    /** CPU of the database's own processes so far: none apart from the server's. */
    cpu: async () => new Map(),
    close: async () => sqlite.close(),
  };
}

/** The columns of `rows` (arrays of values), one array per column, for `unnest`. */
const columnsOf = (rows, count) => Array.from({ length: count }, (_, i) => rows.map((row) => row[i]));

/**
 * The server's PostgreSQL database. Its work happens in its backends, other processes: `cpu()` reads
 * theirs (the server's connections to the database, from pg_stat_activity, their run time from /proc
 * when the database runs on this machine; empty otherwise), so a request's cost counts both.
 */
export async function postgresStore(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const own = (await client.query("SELECT pg_backend_pid() AS pid")).rows[0].pid;
  // A database elsewhere has its processes elsewhere: their pids mean nothing in this /proc.
  const local = ["127.0.0.1", "localhost", "[::1]", ""].includes(new URL(url).hostname);
  return {
    engine: "PostgreSQL",
    begin: async () => void (await client.query("BEGIN")),
    commit: async () => void (await client.query("COMMIT")),
    insertPieces: async (rows) =>
      void (await client.query(
        `INSERT INTO content_items (${PIECE_COLUMNS})
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[])`,
        columnsOf(rows, 7),
      )),
    insertFiles: async (rows) =>
      void (await client.query(
        `INSERT INTO media_files (${FILE_COLUMNS})
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[],
           $8::text[], $9::text[], $10::text[], $11::int[], $12::int[])`,
        columnsOf(rows, 12),
      )),
    bump: async (userId) =>
      void (await client.query("UPDATE users SET content_version = content_version + 1 WHERE id = $1", [userId])),
    analyze: async () => void (await client.query("ANALYZE")),
    /** pid -> CPU ms so far of the database's backends serving this database (ours left out). */
    cpu: async () => {
      if (!local) return new Map();
      const { rows } = await client.query(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> $1",
        [own],
      );
      const readings = new Map();
      for (const { pid } of rows) {
        const ms = preciseCpuMs(pid);
        if (ms !== null) readings.set(pid, ms);
      }
      return readings;
    },
    close: () => client.end(),
  };
}

/** The CPU ms the database's processes spent between two `cpu()` readings (a backend new since counts whole). */
export function databaseCpuBetween(before, after) {
  let ms = 0;
  for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
  return ms;
}
