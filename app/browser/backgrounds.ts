/**
 * The landing screen's animated backgrounds, drawn on one canvas: falling green characters in dark
 * mode, a drifting starfield in light mode. With prefers-reduced-motion a single still frame is drawn.
 */
const GLYPHS = "アイウエオカキクケコサシスセソタチツテトナニヌネノ0123456789ABCDEF<>/{}=+*";

export function startBackground(canvas: HTMLCanvasElement, mode: "matrix" | "starfield"): () => void {
  const context = canvas.getContext("2d");
  if (!context) return () => {};
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  let frame = 0;
  let stopped = false;

  const resize = () => {
    canvas.width = canvas.clientWidth * devicePixelRatio;
    canvas.height = canvas.clientHeight * devicePixelRatio;
    context.setTransform(devicePixelRatio, 0, 0, devicePixelRatio, 0, 0);
  };
  resize();
  window.addEventListener("resize", resize);

  const width = () => canvas.clientWidth;
  const height = () => canvas.clientHeight;
  let draw: () => void;

  if (mode === "matrix") {
    const size = 16;
    let drops = Array.from({ length: Math.ceil(width() / size) }, () => Math.random() * -50);
    context.fillStyle = "#000";
    context.fillRect(0, 0, width(), height());
    draw = () => {
      if (drops.length < Math.ceil(width() / size)) drops = drops.concat(Array(Math.ceil(width() / size) - drops.length).fill(0));
      context.fillStyle = "rgba(0, 0, 0, 0.08)";
      context.fillRect(0, 0, width(), height());
      context.font = `${size}px monospace`;
      drops.forEach((y, column) => {
        context.fillStyle = Math.random() > 0.975 ? "#d7ffd9" : "#00ff66";
        context.fillText(GLYPHS[Math.floor(Math.random() * GLYPHS.length)], column * size, y * size);
        drops[column] = y * size > height() && Math.random() > 0.975 ? 0 : y + 1;
      });
    };
    if (reduceMotion) for (let i = 0; i < 60; i++) draw();
  } else {
    const stars = Array.from({ length: 220 }, () => ({
      x: Math.random(),
      y: Math.random(),
      z: Math.random() * 0.8 + 0.2,
      twinkle: Math.random() * Math.PI * 2,
    }));
    draw = () => {
      const gradient = context.createLinearGradient(0, 0, 0, height());
      gradient.addColorStop(0, "#eaf2ff");
      gradient.addColorStop(1, "#fdfbff");
      context.fillStyle = gradient;
      context.fillRect(0, 0, width(), height());
      for (const star of stars) {
        star.y += reduceMotion ? 0 : 0.0006 * star.z;
        if (star.y > 1) star.y = 0;
        star.twinkle += 0.05;
        context.globalAlpha = 0.45 + 0.35 * Math.sin(star.twinkle) * star.z;
        context.fillStyle = "#3b4a8f";
        context.beginPath();
        context.arc(star.x * width(), star.y * height(), star.z * 1.8, 0, Math.PI * 2);
        context.fill();
      }
      context.globalAlpha = 1;
    };
    if (reduceMotion) draw();
  }

  let last = 0;
  const loop = (time: number) => {
    if (stopped) return;
    // Matrix rain reads best at ~20 frames a second; the starfield runs at full rate.
    if (mode === "starfield" || time - last > 50) {
      draw();
      last = time;
    }
    frame = requestAnimationFrame(loop);
  };
  if (!reduceMotion) frame = requestAnimationFrame(loop);

  return () => {
    stopped = true;
    cancelAnimationFrame(frame);
    window.removeEventListener("resize", resize);
  };
}
