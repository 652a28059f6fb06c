import type { TestProject } from "vitest/node";
import { startTestServer, type RunningServer } from "../support/server";

let server: RunningServer | undefined;

export async function setup(project: TestProject) {
  server = await startTestServer();
  project.provide("apiBaseUrl", server.url);
}

export async function teardown() {
  await server?.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    apiBaseUrl: string;
  }
}
