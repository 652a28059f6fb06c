import { useRef, useState } from "react";
import { aiFailureText, sketchToImage } from "~/browser/ai-client";
import { captureFilename, downloadBlob } from "~/browser/download";
import { AiPageHeader, OfflineBadge } from "~/components/shell/ai-page-header";
import { Icon } from "~/components/ui/icon";
import { RequiresJavaScript } from "~/components/ui/requires-javascript";
import { SketchCanvas, type SketchCanvasHandle, type SketchMode } from "~/components/media/sketch-canvas";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useT } from "~/components/ui/i18n";
import { msg } from "~/common/i18n/translate";
import { aiProviders } from "~/ai/providers.server";
import { DEFAULT_SKETCH_STYLE, SKETCH_STYLES, type SketchStyle } from "~/common/media/sketch-styles";
import { requireUser } from "~/auth/auth.server";
import { getOwnedMedia, mediaUrl } from "~/models/media/ai-media.server";
import { IMAGE_KINDS } from "~/common/media/library-rules";
import type { Route } from "./+types/drawing";

/** docs/screens.md#error-messages and #constants-and-limits texts and constants of the drawing pad. */
const GENERATION_FAILED = msg("AI generation failed. Please try again.");
/** Generate on an empty pad sends nothing: a blank sketch would only come back as a blank image. */
const DRAW_FIRST = msg("Draw something first");
const DEFAULT_COLOUR = "#ffff00";
const BRUSH = { min: 1, max: 30, initial: 5 };
const STYLE_LABELS: Record<SketchStyle, string> = {
  realistic: msg("Realistic"),
  cartoon: msg("Cartoon"),
  futuristic: msg("Futuristic"),
  painting: msg("Painting"),
  concept: msg("Concept"),
};
/** The result's description, one sentence per style (the words around the style differ by language). */
const RESULT_ALT: Record<SketchStyle, string> = {
  realistic: msg("Your sketch in the realistic style"),
  cartoon: msg("Your sketch in the cartoon style"),
  futuristic: msg("Your sketch in the futuristic style"),
  painting: msg("Your sketch in the painting style"),
  concept: msg("Your sketch in the concept style"),
};
const OFFLINE_EXPLAINED = msg(
  "No image model is configured: Generate AI Image restyles your sketch on the server (offline image processing, not a generative model).",
);

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  // ?from={id}: one of the person's images from the library as the starting picture (decision 0022).
  const from = new URL(request.url).searchParams.get("from");
  const start = from ? await getOwnedMedia(user.id, from) : undefined;
  const startImage = start && IMAGE_KINDS.includes(start.kind) ? { url: mediaUrl(start.id), name: start.name } : null;
  return { offline: aiProviders().sketch.offline, startImage, startMissing: Boolean(from) && !startImage };
}

export default function Drawing({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  const hydrated = useHydrated();
  return (
    <main className="page ai-page drawing-page">
      <title>{t("Drawing Pad · Creative AI Studio")}</title>
      <AiPageHeader title={t("Drawing Pad")} icon="palette">
        {loaderData.offline ? <OfflineBadge label={t("Offline stylise")} title={t(OFFLINE_EXPLAINED)} /> : null}
      </AiPageHeader>
      <RequiresJavaScript feature={t("The drawing pad")} />
      {loaderData.startMissing ? (
        <p className="message message-error" role="alert">
          {t("That picture is not in your library: the pad starts empty.")}
        </p>
      ) : null}
      {hydrated ? <DrawingPad offline={loaderData.offline} startImage={loaderData.startImage?.url ?? null} /> : null}
    </main>
  );
}

function DrawingPad({ offline, startImage }: { offline: boolean; startImage: string | null }) {
  const { t } = useT();
  const canvas = useRef<SketchCanvasHandle>(null);
  const [colour, setColour] = useState(DEFAULT_COLOUR);
  const [brushSize, setBrushSize] = useState(BRUSH.initial);
  const [mode, setMode] = useState<SketchMode>("draw");
  const [style, setStyle] = useState<SketchStyle>(DEFAULT_SKETCH_STYLE);
  const [generating, setGenerating] = useState(false);
  const [result, setResult] = useState<{ url: string; style: SketchStyle } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const saveSketch = async () => {
    const blob = await canvas.current?.toBlob().catch(() => null);
    if (blob) downloadBlob(blob, captureFilename("sketch", new Date(), "png"));
  };

  const generate = async () => {
    if (generating || !canvas.current) return;
    if (canvas.current.isBlank()) {
      setResult(null);
      setError(t(DRAW_FIRST));
      return;
    }
    const imageData = canvas.current.toDataUrl();
    if (!imageData) return;
    setGenerating(true);
    setError(null);
    try {
      setResult({ url: await sketchToImage(imageData, style), style });
    } catch (error) {
      // docs/screens.md#error-messages: also when no image comes back; over the person's AI limits, with when to try again.
      setError(aiFailureText(GENERATION_FAILED, error, t));
    } finally {
      setGenerating(false);
    }
  };

  return (
    <>
      {offline ? <p className="muted ai-note">{t(OFFLINE_EXPLAINED)}</p> : null}
      <div className="card drawing-toolbar" role="toolbar" aria-label={t("Drawing tools")}>
        <label className="ai-inline-label">
          {t("Colour")}
          <input
            type="color"
            value={colour}
            onChange={(event) => setColour(event.target.value)}
            aria-label={t("Colour")}
          />
        </label>
        <label className="ai-inline-label">
          {/* One flex row for the words and the number: the label is a column, and a loose <output> was a row of its own that lifted "Brush size" above its neighbours' labels. */}
          <span>
            {t("Brush size")} <output>{brushSize}</output>
          </span>
          <input
            type="range"
            min={BRUSH.min}
            max={BRUSH.max}
            value={brushSize}
            onChange={(event) => setBrushSize(Number(event.target.value))}
            aria-label={t("Brush size")}
          />
        </label>
        <div className="segmented" role="group" aria-label={t("Mode")}>
          <button
            type="button"
            className={`button button-small ${mode === "draw" ? "button-primary" : ""}`}
            aria-pressed={mode === "draw"}
            onClick={() => setMode("draw")}
          >
            <Icon name="brush" />
            {t("Draw")}
          </button>
          <button
            type="button"
            className={`button button-small ${mode === "erase" ? "button-primary" : ""}`}
            aria-pressed={mode === "erase"}
            onClick={() => setMode("erase")}
          >
            <Icon name="eraser" />
            {t("Erase")}
          </button>
        </div>
        <label className="ai-inline-label">
          {t("Style")}
          <select
            value={style}
            onChange={(event) => setStyle(event.target.value as SketchStyle)}
            aria-label={t("Style")}
          >
            {SKETCH_STYLES.map((name) => (
              <option key={name} value={name}>
                {t(STYLE_LABELS[name])}
              </option>
            ))}
          </select>
        </label>
      </div>

      {/* The canvas beside its result on wide screens; one column on phones. */}
      <div className="workspace workspace-wide-first">
        <div className="workspace-column">
          <div className="sketch-frame">
            <SketchCanvas ref={canvas} colour={colour} brushSize={brushSize} mode={mode} startImage={startImage} />
          </div>

          <div className="ai-actions">
            <button type="button" className="button" onClick={() => canvas.current?.clear()}>
              {t("Clear")}
            </button>
            <button type="button" className="button" onClick={() => void saveSketch()}>
              {t("Save Sketch")}
            </button>
            <button
              type="button"
              className="button button-primary"
              onClick={() => void generate()}
              disabled={generating}
            >
              {generating ? t("Generating...") : t("Generate AI Image")}
            </button>
          </div>
        </div>
        <section className="card ai-result" aria-label={t("AI result")} aria-live="polite">
          {error ? (
            <p className="message message-error" role="alert">
              {error}
            </p>
          ) : null}
          {result ? (
            <figure className="ai-figure">
              <img
                src={result.url}
                alt={t(RESULT_ALT[result.style])}
                className="ai-image"
                data-testid="sketch-result"
              />
              <figcaption>
                <a className="button" href={result.url} download={`sketch-${result.style}.png`}>
                  {t("Download Image")}
                </a>
              </figcaption>
            </figure>
          ) : !error ? (
            <p className="muted">
              {generating ? t("Generating...") : t("Draw something, pick a style and press Generate AI Image.")}
            </p>
          ) : null}
        </section>
      </div>
    </>
  );
}
