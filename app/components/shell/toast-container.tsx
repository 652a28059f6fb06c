import { useEffect, useSyncExternalStore } from "react";
import { ToastContainer, toast, type CloseButtonProps } from "react-toastify/unstyled";
import "react-toastify/ReactToastify.css";
import type { Theme } from "~/common/tools";
import { pauseWhileFocused } from "./toast-peek";
import { useT } from "~/components/ui/i18n";

/**
 * The toasts' container with its settings. It comes with react-toastify in a chunk of its own, fetched
 * the first time a toast is raised (toasts.tsx), so none of this is part of a page's first load.
 */
const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";
const subscribeToMotion = (listener: () => void) => {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
};

/** Each toast's close control, named for what it closes (react-toastify's own is called "close"). */
function CloseToast({ closeToast }: CloseButtonProps) {
  const { t } = useT();
  return (
    <button
      type="button"
      className="Toastify__close-button toast-close"
      aria-label={t("Close notification")}
      onClick={(event) => {
        event.stopPropagation();
        closeToast(event);
      }}
    >
      {/* Drawn, not a "×" character: a toast's text stays exactly its message. */}
      <svg className="toast-close-mark" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
        <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
    </button>
  );
}

/**
 * docs/screens.md "Shell and toasts" (decision 0065): toasts stand at the top right (across the top on
 * phones), below the phone's top bar and beside the sidebar, never over the navigation (app.css).
 * Each closes after its own time (5000 ms unless the caller says otherwise), has a close button,
 * pauses while hovered or while focus is inside it, and Alt+T focuses them (react-toastify's
 * defaults, set explicitly). At most three show at once, the oldest leaving (toasts.tsx). With
 * reduced motion the countdown bar is hidden (it still times the close: react-toastify closes a toast
 * when the bar's animation ends) and app.css stills the entrances.
 */
export default function StudioToastContainer({ theme }: { theme: Theme }) {
  const reducedMotion = useSyncExternalStore(
    subscribeToMotion,
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
  useEffect(() => pauseWhileFocused(toast), []);
  return (
    <ToastContainer
      position="top-right"
      theme={theme}
      hideProgressBar={reducedMotion}
      autoClose={5000}
      pauseOnHover
      closeButton={CloseToast}
      hotKeys={(event) => event.altKey && event.code === "KeyT"}
    />
  );
}
