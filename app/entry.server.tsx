import { randomBytes } from "node:crypto";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server.bun";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { contentListFromMemory } from "./auth/api-answers-from-memory.server";
import { autosaveAtTheDoor } from "./auth/api-door-actions.server";
import { MarkupOnlyProvider } from "./components/markup-only";
import { NonceProvider } from "./components/nonce";
import type { DoorAction, DoorRequest, MemoryAnswer } from "./lib/http.server";
import { createMarkupStream } from "./lib/markup-stream.server";
import { markupOnlyContext } from "./lib/markup-only.server";
import { contentSecurityPolicy } from "./lib/security.server";
// The file app.css's @font-face names for Latin text (Vite gives both one hashed URL).
import interLatinFont from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";

export const streamTimeout = 5_000;

/**
 * What scripts/server.mjs takes from the build (`build.entry.module`): the settings parsed once, the
 * life cycle (startApp before listening, stopApp after the last request) and the cross-origin rule
 * the front door applies before React Router's own guard (docs/decisions/0014), and the request handler.
 */
export { env as settings } from "./lib/env.server";
export { isCrossOriginMutation } from "./lib/security.server";
export { startApp, stopApp } from "./services/background.server";
// React Router's request handler and the Node stream bridge come from the build, so the front door runs
// the same (production) copy of React Router as the routes (vite.config.ts).
export { createRequestHandler } from "react-router";
export { createReadableStreamFromReadable } from "@react-router/node";

/**
 * Answers the front door may give from memory before React Router, by route id: the URL is the
 * route's in routes.ts (a path without parameters). Each answers exactly what the route would, or
 * null to leave the request to React Router (docs/decisions/0026-answers-from-memory.md).
 */
export const answersFromMemory: Record<string, (request: DoorRequest) => Promise<MemoryAnswer | null>> = {
  "routes/api/content": contentListFromMemory,
};

/**
 * POSTs the front door may answer itself before React Router, by route id (the path, parameters
 * included, is the route's in routes.ts). Each decides from the headers whether it takes the request,
 * then answers every outcome as the route's action would (docs/decisions/0028-actions-at-the-door.md).
 */
export const actionsAtTheDoor: Record<string, DoorAction> = {
  "routes/api/content.autosave": autosaveAtTheDoor,
};

/** What the server render gets when no loader kept anything out of the hydration data. */
const EMPTY_STORE: ReadonlyMap<string, unknown> = new Map();

const FONT_PRELOAD = `<${interLatinFont}>; rel=preload; as=font; type="font/woff2"; crossorigin`;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // Every document gets its own nonce; only scripts carrying it (ours) may run.
  const nonce = randomBytes(16).toString("base64");
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce, process.env.NODE_ENV === "development"));
  // The Latin font starts downloading with the page instead of after its stylesheet (Lighthouse on
  // / 97 -> 99); a header, so it costs the markup and the first-load JavaScript nothing.
  responseHeaders.append("Link", FONT_PRELOAD);

  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  // React's "bun" build of the streaming renderer, writing strings into one UTF-8 chunk per burst
  // (app/lib/markup-stream.server.ts says why not the Node or edge build; decision 0027).
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers (and SPA mode) get the whole page at once, not a shell followed by streamed parts.
    const wholePage = Boolean(userAgent && isbot(userAgent)) || routerContext.isSpaMode;
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000);
    const { destination, stream } = createMarkupStream((reason) => abort(reason));
    const send = () => {
      shellRendered = true;
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      pipe(destination as unknown as NodeJS.WritableStream);
      resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
    };

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <MarkupOnlyProvider value={loadContext.get(markupOnlyContext) ?? EMPTY_STORE}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </MarkupOnlyProvider>
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          if (!wholePage) send();
        },
        onAllReady() {
          clearTimeout(timeoutId);
          if (wholePage) send();
        },
        onShellError(error: unknown) {
          clearTimeout(timeoutId);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
