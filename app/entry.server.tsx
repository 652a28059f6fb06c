import { randomBytes } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { MarkupOnlyProvider } from "./components/ui/use-markup-only";
import { TranslatorProvider } from "./components/ui/i18n";
import { screenLanguageOf } from "./auth/screen-language.server";
import { translatorFor } from "./lib/i18n/catalogues.server";
import { NonceProvider } from "./components/shell/nonce";
import { RequestIdProvider } from "./components/shell/error-reference";
import { markupOnlyContext } from "./lib/screens/markup-only.server";
import { contentSecurityPolicy } from "./lib/http/security.server";
import { RETRY_AFTER_SECONDS } from "./lib/outage.server";
import { observabilityWith } from "./lib/observe/observability.server";
import { metricsCollectors } from "./services/operators/metrics-collectors.server";
// The file app.css's @font-face names for Latin text (Vite gives both one hashed URL).
import interLatinFont from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";

export const streamTimeout = 5_000;

/**
 * What the front door (server/app-build.ts) takes from the build (`build.entry.module`): the settings parsed once,
 * the life cycle (startApp before listening, stopApp after the last request; decision 0014), the
 * headers static files share with every answer, and React Router's Node adapter with the load
 * context it gives each request (the client's address). The adapter comes from the build so that it
 * runs the same production copy of React Router as the routes (vite.config.ts).
 */
export { env as settings } from "./lib/settings/env.server";
export {
  SECURITY_HEADERS as staticFileHeaders,
  sharedPathHeaders,
  strictTransportSecurity,
} from "./lib/http/security.server";
export { createLoadContext } from "./lib/http/client-address.server";
export { startApp, stopApp } from "./services/operators/background.server";
export { runAdmin } from "./services/operators/admin.server";
// `npm run admin -- backup|restore` find the file store from the parsed STORAGE_URL as the server does.
export { parseStorageUrl } from "./lib/storage/storage-url.server";
export { createRequestListener } from "@react-router/node";
// Every error React Router catches passes here: an outage is remembered for outageMiddleware (a 503, not a 500).
export { noteError as handleError } from "./lib/http/outage-middleware.server";
/** The request id, metrics, log and traces the front door keeps (app/lib/observe/), with the domain's collectors. */
export const observability = observabilityWith(metricsCollectors);

/**
 * React's Node renderer writes a page in many small pieces and calls the destination's `flush()`
 * after each burst it completes (its hook for compression middleware). The pieces of a burst travel
 * on as one chunk: one read of the body's stream, one write to the socket and one pass through the
 * compressor per burst instead of per piece.
 */
class MarkupBursts extends Transform {
  private pending: Buffer[] = [];

  constructor(private readonly onEnd: () => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.pending.push(chunk);
    callback();
  }

  /** Called by React after each burst. */
  flush() {
    if (this.pending.length === 0) return;
    this.push(this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending));
    this.pending = [];
  }

  override _flush(callback: TransformCallback) {
    this.flush();
    this.onEnd();
    callback();
  }
}

/** What the server render gets when no loader kept anything out of the hydration data. */
const EMPTY_STORE: ReadonlyMap<string, unknown> = new Map();

const FONT_PRELOAD = `<${interLatinFont}>; rel=preload; as=font; type="font/woff2"; crossorigin`;

export default async function handleRequest(
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
  // A 503 page is the database or the store out of reach (outageMiddleware): come back in a few seconds.
  if (responseStatusCode === 503 && !responseHeaders.has("Retry-After"))
    responseHeaders.set("Retry-After", String(RETRY_AFTER_SECONDS));

  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  // The root loader has worked it out already (once per request); a page whose loaders did not run gets it here.
  const translator = translatorFor(await screenLanguageOf(loadContext, request));

  // React's Node renderer, as React Router's default entry uses it.
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers (and SPA mode) get the whole page at once, not a shell followed by streamed parts.
    const wholePage = Boolean(userAgent && isbot(userAgent)) || routerContext.isSpaMode;
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000);
    const send = () => {
      shellRendered = true;
      const body = new MarkupBursts(() => clearTimeout(timeoutId));
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      pipe(body);
      resolve(
        new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }),
      );
    };

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RequestIdProvider value={request.headers.get("X-Request-Id")}>
          <MarkupOnlyProvider value={loadContext.get(markupOnlyContext) ?? EMPTY_STORE}>
            <TranslatorProvider value={translator}>
              <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
            </TranslatorProvider>
          </MarkupOnlyProvider>
        </RequestIdProvider>
      </NonceProvider>,
      {
        nonce,
        // A finished Suspense boundary (the content page's <Await>) is written in place however large:
        // by default React sends one over 12,800 bytes after its fallback, for a script to swap in, and
        // a browser without JavaScript would show "Loading..." for a long item for ever.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onShellReady() {
          if (!wholePage) send();
        },
        onAllReady() {
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
