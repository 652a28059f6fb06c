import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startTestServer, type RunningServer } from "./server";

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "oidc-provider.mjs");

export interface OidcProvider {
  /** http://127.0.0.1:<port>, the issuer identifier. */
  issuer: string;
  /** Registers (or replaces) a client with these redirect URIs. */
  registerClient(client: { client_id: string; client_secret: string; redirect_uris: string[] }): Promise<void>;
  stop(): Promise<void>;
}

type ProviderMessage = { type: "ready"; issuer: string } | { type: "client-ready"; client_id: string };

/** Starts tests/support/oidc-provider.mjs (a real OpenID provider) in a process of its own on a free loopback port. */
export async function startOidcProvider(): Promise<OidcProvider> {
  let output = "";
  const child: ChildProcess = fork(script, [], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const next = (wanted: ProviderMessage["type"], id?: string) =>
    new Promise<ProviderMessage>((resolve, reject) => {
      const onMessage = (message: ProviderMessage) => {
        if (message.type !== wanted || (id && message.type === "client-ready" && message.client_id !== id)) return;
        child.off("message", onMessage);
        resolve(message);
      };
      child.on("message", onMessage);
      void exited.then(() => reject(new Error(`the OpenID provider exited:\n${output}`)));
    });
  const ready = await next("ready");
  if (ready.type !== "ready") throw new Error("unexpected message");
  return {
    issuer: ready.issuer,
    async registerClient(client) {
      const registered = next("client-ready", client.client_id);
      child.send({ type: "client", ...client });
      await registered;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

export interface SsoApp {
  server: RunningServer;
  /** The app's port: reach it as http://127.0.0.1:<port> or http://localhost:<port>. */
  port: number;
  stop(): Promise<void>;
}

export const SSO_NAME = "Test ID";

/**
 * The production build started with single sign-on against `provider` (OIDC_NAME "Test ID"), and a
 * client registered there for both its loopback names (and `extraRedirectUris`, e.g. PUBLIC_URL's).
 * `env` adds settings, e.g. REGISTRATION=closed.
 */
export async function startSsoApp(
  provider: OidcProvider,
  env: Record<string, string> = {},
  extraRedirectUris: string[] = [],
): Promise<SsoApp> {
  const client = {
    client_id: `studio-${randomBytes(4).toString("hex")}`,
    client_secret: randomBytes(24).toString("base64url"),
  };
  const server = await startTestServer({
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: client.client_id,
    OIDC_CLIENT_SECRET: client.client_secret,
    OIDC_NAME: SSO_NAME,
    ...env,
  });
  const port = Number(new URL(server.url).port);
  await provider.registerClient({
    ...client,
    redirect_uris: [
      `http://127.0.0.1:${port}/auth/oidc/callback`,
      `http://localhost:${port}/auth/oidc/callback`,
      ...extraRedirectUris,
    ],
  });
  return { server, port, stop: () => server.stop() };
}
