import { useEffect } from "react";
import { ToastContainer, toast, type CloseButtonProps } from "react-toastify/unstyled";
import "react-toastify/ReactToastify.css";
import type { Theme } from "~/common/tools";
import { pauseWhileFocused } from "./toast-peek";
import { useT } from "~/components/ui/i18n";

/**
 * The toasts' container with its settings. It comes with react-toastify in a chunk of its own, fetched
 * the first time a toast is raised (toasts.tsx), so none of this is part of a page's first load.
 */
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
 * defaults, set explicitly). At most three show at once, the oldest leaving (toasts.tsx).
 *
 * The countdown bar times the close (react-toastify closes a toast when the bar's animation ends). Its
 * name for assistive technology is react-toastify's English "notification timer", which no option
 * changes, so it is hidden from them (`hideProgressBar` marks it aria-hidden: a countdown is not read
 * out anyway) and app.css shows it again, except with reduced motion, where it stays hidden and app.css
 * stills the entrances. The container's own name ("Notifications Alt+T") is said in the screen's language.
 */
export default function StudioToastContainer({ theme }: { theme: Theme }) {
  const { t } = useT();
  useEffect(() => pauseWhileFocused(toast), []);
  return (
    <ToastContainer
      aria-label={t("Notifications Alt+T")}
      position="top-right"
      theme={theme}
      hideProgressBar
      autoClose={5000}
      pauseOnHover
      closeButton={CloseToast}
      hotKeys={(event) => event.altKey && event.code === "KeyT"}
    />
  );
}
