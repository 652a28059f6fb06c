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
        return event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
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
