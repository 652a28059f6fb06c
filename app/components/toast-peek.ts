/**
 * While the pointer is over a toast: every toast pauses, and `data-toast-peek` on <html> makes them
 * faint and click-through (app.css). Followed by the pointer's position, since a click-through toast
 * gets no pointer events. Returns the clean-up.
 */
export function seeThroughUnderPointer(toasts: { pause(): void; play(): void }): () => void {
  const root = document.documentElement;
  let peeking = false;
  const follow = (event: PointerEvent | null) => {
    const over =
      !!event &&
      [...document.querySelectorAll(".Toastify__toast")].some((element) => {
        const box = element.getBoundingClientRect();
        return (
          event.clientX >= box.left &&
          event.clientX <= box.right &&
          event.clientY >= box.top &&
          event.clientY <= box.bottom
        );
      });
    if (over === peeking) return;
    peeking = over;
    root.toggleAttribute("data-toast-peek", over);
    if (over) toasts.pause();
    else toasts.play();
  };
  const onPointer = (event: PointerEvent) => follow(event);
  const onLeave = () => follow(null);
  document.addEventListener("pointermove", onPointer, { passive: true });
  document.addEventListener("pointerdown", onPointer, { passive: true, capture: true });
  document.documentElement.addEventListener("pointerleave", onLeave);
  return () => {
    document.removeEventListener("pointermove", onPointer);
    document.removeEventListener("pointerdown", onPointer, { capture: true });
    document.documentElement.removeEventListener("pointerleave", onLeave);
    root.removeAttribute("data-toast-peek");
  };
}

/**
 * Keeps `--toast-stack` on <html> at the height the shown toasts take from the bottom of the window
 * (0 with none): on a desktop with the sidebar the toasts sit at its foot and the sidebar ends above
 * them (app.css, decision 0045), so no control lies under a toast. Followed through the toasts' arrivals,
 * departures and size changes. Returns the clean-up.
 */
export function followToastStack(): () => void {
  const root = document.documentElement;
  const region = document.querySelector(".Toastify");
  if (!region) return () => {};
  const measure = () => {
    let top = Infinity;
    for (const toast of region.querySelectorAll(".Toastify__toast"))
      top = Math.min(top, toast.getBoundingClientRect().top);
    const room = Number.isFinite(top) ? Math.max(0, Math.ceil(window.innerHeight - top)) : 0;
    root.style.setProperty("--toast-stack", `${room}px`);
  };
  const sizes = new ResizeObserver(measure);
  const watch = () => {
    sizes.disconnect();
    for (const toast of region.querySelectorAll(".Toastify__toast")) sizes.observe(toast);
    measure();
  };
  const arrivals = new MutationObserver(watch);
  arrivals.observe(region, { childList: true, subtree: true });
  window.addEventListener("resize", measure);
  watch();
  return () => {
    arrivals.disconnect();
    sizes.disconnect();
    window.removeEventListener("resize", measure);
    root.style.removeProperty("--toast-stack");
  };
}
