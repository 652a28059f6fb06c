import { useCallback, useEffect, useRef, useState } from "react";
import { data, Form } from "react-router";
import { aiFailureText, generateImage } from "~/browser/ai-client";
import { AiPageHeader, OfflineBadge } from "~/components/shell/ai-page-header";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useT } from "~/components/ui/i18n";
import { PROMPT_MAX } from "~/ai/image/image.server";
import { INPUT_TEMPLATES, promptSchema } from "~/ai/inputs.server";
import { msg } from "~/common/i18n/translate";
import { screenText } from "~/common/media/media-texts";
import { PLACEHOLDER_DELAY_MS, STOCK_PHOTO_SIZE, stockPhotoSearchUrl } from "~/common/media/stock-photo";
import { generateImage as generateOnServer, imageProviderConfigured } from "~/services/media/generation.server";
import { screenAiFailure } from "~/services/ai-limits.server";
import { requireUser } from "~/auth/auth.server";
import { screenTranslator } from "~/auth/screen-language.server";
import { DomainError } from "~/lib/domain-error";
import { readFormData } from "~/lib/http/bodies.server";
import { actionRetryAfter } from "~/lib/http/responder.server";
import generatedStylesheet from "~/styles/generated-media.css?url";
import type { Route } from "./+types/image";

/** A refusal's Retry-After (the person's AI limits) reaches the page's answer too. */
export const headers: Route.HeadersFunction = actionRetryAfter;

/** The unloadable picture's note in its own box. */
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: generatedStylesheet }];

/** docs/screens.md#validation-rules and #error-messages texts of the image generator. */
const ENTER_PROMPT = msg("Please enter a prompt.");
const GENERATION_FAILED = msg("Image generation failed. Try again.");
const PLACEHOLDER_EXPLAINED = msg(
  "No image model is configured, so this builds a stock-photo search link (800x600) from your prompt. Set AI_BASE_URL and AI_IMAGE_MODEL to generate real images.",
);

export function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, request);
  return { configured: imageProviderConfigured(), promptMax: PROMPT_MAX };
}

type Result = { kind: "image"; url: string } | { kind: "link"; url: string };
type Outcome = { prompt: string; result: Result | null; error: string | null };

/** Without JavaScript: the same rules as the screen, answered in the page (no 2 s wait). */
export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const { t } = await screenTranslator(context, request);
  const form = await readFormData(request).catch(() => null);
  const prompt = typeof form?.get("prompt") === "string" ? (form!.get("prompt") as string) : "";
  const parsed = promptSchema.safeParse({ prompt });
  if (!parsed.success) {
    const error =
      prompt.trim() === "" ? t(ENTER_PROMPT) : screenText(t, parsed.error.issues[0].message, INPUT_TEMPLATES);
    return data<Outcome>({ prompt, result: null, error }, { status: 422 });
  }
  if (!imageProviderConfigured()) {
    return data<Outcome>({
      prompt,
      result: { kind: "link", url: stockPhotoSearchUrl(parsed.data.prompt) },
      error: null,
    });
  }
  try {
    const image = await generateOnServer(user.id, parsed.data.prompt, request.signal);
    return data<Outcome>({ prompt, result: { kind: "image", url: image.url }, error: null });
  } catch (error) {
    // A provider failure reaches the screen as the service's DomainError: the text in docs/screens.md#error-messages with its status.
    // Over the person's AI limits: the reason too, which says when to try again (429, Retry-After).
    if (!(error instanceof DomainError)) throw error;
    const failure = screenAiFailure(t(GENERATION_FAILED), error, t);
    return data<Outcome>(
      { prompt, result: null, error: failure.message },
      { status: failure.status, headers: failure.headers },
    );
  }
}

export default function ImageGenerator({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const hydrated = useHydrated();
  const [prompt, setPrompt] = useState(actionData?.prompt ?? "");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(actionData?.result ?? null);
  /** The prompt the shown result was made from (the field may have changed since). */
  const [resultPrompt, setResultPrompt] = useState(actionData?.prompt ?? "");
  const [error, setError] = useState<string | null>(actionData?.error ?? null);
  const placeholderTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => void (placeholderTimer.current && clearTimeout(placeholderTimer.current)), []);

  const generate = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const text = prompt.trim();
    if (!text) {
      setResult(null);
      setError(t(ENTER_PROMPT));
      return;
    }
    setBusy(true);
    setError(null);
    setResult(null);
    setResultPrompt(text);
    if (!loaderData.configured) {
      // docs/api.md#every-call: no call; after 2 s the stock-photo link built from the prompt.
      placeholderTimer.current = setTimeout(() => {
        setResult({ kind: "link", url: stockPhotoSearchUrl(text) });
        setBusy(false);
      }, PLACEHOLDER_DELAY_MS);
      return;
    }
    try {
      setResult({ kind: "image", url: await generateImage(text) });
    } catch (error) {
      setError(aiFailureText(GENERATION_FAILED, error, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="page ai-page image-page">
      <title>{t("Image Generator · Creative AI Studio")}</title>
      <AiPageHeader title={t("Image Generator")} icon="image">
        {loaderData.configured ? null : <OfflineBadge label={t("Placeholder")} title={t(PLACEHOLDER_EXPLAINED)} />}
      </AiPageHeader>
      {loaderData.configured ? null : <p className="muted ai-note">{t(PLACEHOLDER_EXPLAINED)}</p>}
      {/* The prompt beside its image on wide screens; one column on phones. */}
      <div className="workspace">
        <Form
          method="post"
          className="card form"
          aria-label={t("Generate an image")}
          onSubmit={hydrated ? generate : undefined}
        >
          <label>
            {t("Prompt")}
            <textarea
              name="prompt"
              rows={3}
              maxLength={loaderData.promptMax}
              value={prompt}
              onChange={(event) => setPrompt(event.target.value)}
              placeholder={t("A lighthouse on a cliff at sunset")}
            />
          </label>
          <div className="ai-actions">
            <button type="submit" className="button button-primary" disabled={busy}>
              {busy ? t("Generating...") : t("Generate Image")}
            </button>
          </div>
        </Form>
        <section className="card ai-result" aria-label={t("Result")} aria-live="polite">
          {error ? (
            <p className="message message-error" role="alert">
              {error}
            </p>
          ) : null}
          {busy ? <p className="muted">{t("Generating...")}</p> : null}
          {result ? <ResultImage key={result.url} result={result} prompt={resultPrompt} /> : null}
          {!error && !busy && !result ? <p className="muted">{t("Your image appears here.")}</p> : null}
        </section>
      </div>
    </main>
  );
}

/** Said when the picture does not arrive (offline, blocked, or the service failed); the link stays. */
const IMAGE_NOT_LOADED = msg("The image could not be loaded here. The link below still leads to it.");

/**
 * docs/screens.md#screens-and-routes "the resulting image": the picture itself, with its link below it. The stock photo is
 * LoremFlickr's, loaded by the browser straight from there (the CSP's img-src allows that one origin;
 * no referrer is sent; docs/decisions/0021). When it cannot load, the page says so in words, in a box of
 * its own between the (hidden) picture and the link (it used to sit inline in the caption,
 * over its own lines and the link).
 */
function ResultImage({ result, prompt }: { result: Result; prompt: string }) {
  const { t } = useT();
  const [failed, setFailed] = useState(false);
  // An image that failed before the page was hydrated raised its error event before React listened.
  const watch = useCallback((image: HTMLImageElement | null) => {
    if (image?.complete && image.naturalWidth === 0) setFailed(true);
  }, []);
  const stock = result.kind === "link";
  const words = prompt.trim();
  return (
    <figure className="ai-figure">
      <img
        ref={watch}
        src={result.url}
        alt={
          stock
            ? t("Stock photo matching “{{prompt}}”", { prompt: words })
            : t("Image generated from “{{prompt}}”", { prompt: words })
        }
        className="ai-image"
        width={stock ? STOCK_PHOTO_SIZE.width : undefined}
        height={stock ? STOCK_PHOTO_SIZE.height : undefined}
        referrerPolicy="no-referrer"
        onError={() => setFailed(true)}
        onLoad={() => setFailed(false)}
        hidden={failed}
        data-testid="result-image"
      />
      {failed ? (
        <p className="message message-error ai-image-note" role="status" data-testid="image-not-loaded">
          {t(IMAGE_NOT_LOADED)}
        </p>
      ) : null}
      <figcaption className="ai-stock-link">
        {stock ? (
          <>
            {t("Stock photo ({{width}}x{{height}}) for your prompt:", STOCK_PHOTO_SIZE)}{" "}
            <a href={result.url} target="_blank" rel="noopener noreferrer" data-testid="stock-photo-link">
              {result.url}
            </a>
          </>
        ) : (
          <a className="button" href={result.url} download>
            {t("Download Image")}
          </a>
        )}
      </figcaption>
    </figure>
  );
}
