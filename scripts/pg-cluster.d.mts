// Types for scripts/pg-cluster.mjs (plain JavaScript, so the scripts need no build step).
export declare class PostgresNotInstalledError extends Error {
  code: "PG_NOT_INSTALLED";
}

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:<port>/<database> (trust authentication, loopback only). */
  url: string;
  port: number;
  database: string;
  dataDir: string;
  bindir: string;
  /** Creates another database in the cluster; resolves with its URL. */
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl restart -m fast` on the same data and port. */
  restart(): Promise<string>;
  /** Stops the server, keeping its folder (resume() starts it again). */
  halt(): Promise<string>;
  resume(): Promise<string>;
  /** Stops the server and removes its temporary folder. */
  stop(): Promise<void>;
  stopSync(): void;
}

export interface StartPgClusterOptions {
  /** Database created in the cluster (default "studio"). */
  database?: string;
  /** TCP port on 127.0.0.1 (default: a free one). */
  port?: number;
  /** Folder of initdb, pg_ctl and postgres (default: findPostgresBindir()). */
  bindir?: string | null;
  /** Print where the cluster runs on stderr. */
  log?: boolean;
}

/** The folder holding initdb, pg_ctl and postgres, or null when PostgreSQL is not installed. */
export declare function findPostgresBindir(): string | null;
/** Whether a throwaway cluster can be started here. */
export declare function postgresAvailable(): boolean;
/** Starts a throwaway cluster; rejects with PostgresNotInstalledError when the binaries are missing. */
export declare function startPgCluster(options?: StartPgClusterOptions): Promise<PgCluster>;
