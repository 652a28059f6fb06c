import { useEffect, useSyncExternalStore } from "react";
import { ToastContainer, toast } from "react-toastify/unstyled";
import "react-toastify/ReactToastify.css";
import type { Theme } from "~/shared/tools";
import { followToastStack, seeThroughUnderPointer } from "./toast-peek";

/**
 * The toasts' container with its settings. It comes with react-toastify in a chunk of its own, fetched
 * the first time a toast is raised (toasts.tsx), so none of this is part of a page's first load.
 */
const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";
/** app.css's phone width: toasts are full width there. */
const PHONE = "(max-width: 600px)";
const subscribeTo = (media: string) => (listener: () => void) => {
  const query = window.matchMedia(media);
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
};
const subscribeToMotion = subscribeTo(REDUCED_MOTION);
const subscribeToPhone = subscribeTo(PHONE);

/** How many toasts show at once (four stacked toasts covered half a phone); the rest wait their turn. */
export const TOASTS_AT_ONCE = { phone: 2, desktop: 3 };

/**
 * docs/screens.md#error-messages: toasts auto-close after 5000 ms, pause on hover, Alt+T focuses them (react-toastify's
 * defaults, set explicitly). They sit at the bottom (full width on phones), not the top-right in docs/screens.md, where
 * they covered the header's controls (WCAG 2.4.11; docs/decisions/0021), and
 * take the page's theme. On a desktop with the sidebar they sit at the sidebar's foot, and the sidebar
 * ends above them (followToastStack, app.css; docs/decisions/0045): mid-page they covered a row's
 * Delete (decision 0045). Where a toast still lies over a control (a row's Delete at the bottom of the
 * screen), it gets out of the way: while the pointer is over a toast, the toasts pause (the pause in docs/screens.md
 * on hover) and turn faint and click-through (app.css), so the control beneath shows and takes the
 * click; a control reached with the keyboard is scrolled clear of them (app.css). With reduced motion
 * the countdown bar is hidden (it still times the close: react-toastify closes a toast when the
 * bar's animation ends) and app.css stills the entrances.
 */
export default function StudioToastContainer({ theme }: { theme: Theme }) {
  const reducedMotion = useSyncExternalStore(
    subscribeToMotion,
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
  const phone = useSyncExternalStore(
    subscribeToPhone,
    () => window.matchMedia(PHONE).matches,
    () => false,
  );
  useEffect(() => seeThroughUnderPointer(toast), []);
  useEffect(() => followToastStack(), []);
  return (
    <ToastContainer
      position="bottom-right"
      theme={theme}
      limit={phone ? TOASTS_AT_ONCE.phone : TOASTS_AT_ONCE.desktop}
      hideProgressBar={reducedMotion}
      autoClose={5000}
      // Hover is followed by seeThroughUnderPointer (a click-through toast has no hover of its own).
      pauseOnHover={false}
      hotKeys={(event) => event.altKey && event.code === "KeyT"}
    />
  );
}
