// Types of scripts/launch.mjs for the TypeScript tests (tests/support/server.ts).
import type { ChildProcess } from "node:child_process";

export declare const root: string;
export declare function serverBuildPath(): string;
export declare function hasBuild(): boolean;
export declare function ensureBuild(log?: (message: string) => void): void;
export declare const CHROMIUM_FLAGS: readonly string[];

export interface LaunchOptions {
  env?: Record<string, string>;
  dataDirPrefix?: string;
  stdout?: "pipe" | "inherit";
  stderr?: "pipe" | "inherit";
  onOutput?: (text: string) => void;
  timeoutMs?: number;
  nodeArgs?: string[];
}

export interface LaunchedServer {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  pid: number | undefined;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop: () => Promise<void>;
}

export declare function launchServer(options?: LaunchOptions): Promise<LaunchedServer>;
