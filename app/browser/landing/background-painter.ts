/**
 * What the landing's animated backgrounds draw, for any 2D context (the page's canvas, or an
 * OffscreenCanvas in a worker): falling green characters in dark mode, a drifting starfield in
 * light mode. Sizes come from the caller (measured on resize, never read per frame).
 */
export type BackgroundMode = "matrix" | "starfield";
export type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
export interface CanvasSize {
  width: number;
  height: number;
}

// Greek letters rather than katakana: every monospace font has them (katakana showed as boxes
// wherever no CJK font is installed).
const GLYPHS = "ΔΘΛΞΠΣΦΨΩλμξπψω0123456789ABCDEF<>/{}=+*";

/** Matrix rain reads best at about 20 frames a second; the starfield at about 30. */
export const FRAME_INTERVAL_MS: Record<BackgroundMode, number> = { matrix: 50, starfield: 33 };

/** Returns one frame's drawing; the first frame is drawn at once. With reduced motion, call it once. */
export function createPainter(
  context: Context2D,
  mode: BackgroundMode,
  size: () => CanvasSize,
  reduceMotion: boolean,
): () => void {
  if (mode === "matrix") {
    const glyph = 16;
    let drops: number[] = [];
    const { width, height } = size();
    context.fillStyle = "#000";
    context.fillRect(0, 0, width, height);
    const draw = () => {
      const { width, height } = size();
      const columns = Math.ceil(width / glyph);
      if (drops.length < columns)
        drops = drops.concat(Array.from({ length: columns - drops.length }, () => Math.random() * -50));
      context.fillStyle = "rgba(0, 0, 0, 0.08)";
      context.fillRect(0, 0, width, height);
      context.font = `${glyph}px monospace`;
      for (let column = 0; column < columns; column++) {
        const y = drops[column];
        context.fillStyle = Math.random() > 0.975 ? "#d7ffd9" : "#00ff66";
        context.fillText(GLYPHS[Math.floor(Math.random() * GLYPHS.length)], column * glyph, y * glyph);
        drops[column] = y * glyph > height && Math.random() > 0.975 ? 0 : y + 1;
      }
    };
    // A still picture of the rain for reduced motion: as if it had been falling for a few seconds.
    if (reduceMotion) for (let i = 0; i < 60; i++) draw();
    return draw;
  }
  const stars = Array.from({ length: 220 }, () => ({
    x: Math.random(),
    y: Math.random(),
    z: Math.random() * 0.8 + 0.2,
    twinkle: Math.random() * Math.PI * 2,
  }));
  let gradient: CanvasGradient | null = null;
  let gradientHeight = -1;
  const draw = () => {
    const { width, height } = size();
    if (!gradient || gradientHeight !== height) {
      gradient = context.createLinearGradient(0, 0, 0, height);
      gradient.addColorStop(0, "#eaf2ff");
      gradient.addColorStop(1, "#fdfbff");
      gradientHeight = height;
    }
    context.globalAlpha = 1;
    context.fillStyle = gradient;
    context.fillRect(0, 0, width, height);
    context.fillStyle = "#3b4a8f";
    for (const star of stars) {
      if (!reduceMotion) star.y += 0.0009 * star.z;
      if (star.y > 1) star.y = 0;
      star.twinkle += 0.07;
      context.globalAlpha = 0.45 + 0.35 * Math.sin(star.twinkle) * star.z;
      const radius = star.z * 1.8;
      // Small squares read as stars at this size and cost far less than arcs.
      context.fillRect(star.x * width - radius / 2, star.y * height - radius / 2, radius, radius);
    }
    context.globalAlpha = 1;
  };
  draw();
  return draw;
}
