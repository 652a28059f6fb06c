import { lazy, Suspense, useEffect, useRef, useSyncExternalStore } from "react";
import { useLocation, useRouteLoaderData } from "react-router";
import { forgetWelcome } from "~/browser/welcome";
import type { ToastOptions } from "react-toastify/unstyled";
import { useTheme } from "./theme-toggle";

export interface FlashToast {
  type: "info" | "success" | "error" | "warning";
  message: string;
}

/**
 * react-toastify (about 7 KB gzip, and its 2.7 KB stylesheet) is not part of any page's first load: it is fetched the first
 * time a toast is raised, and its container is mounted then. Toasts raised before the container
 * has mounted wait in react-toastify's own queue and show as soon as it mounts.
 */
type Toastify = typeof import("react-toastify/unstyled");
let toastify: Promise<Toastify> | undefined;
let wanted = false;
const listeners = new Set<() => void>();

function loadToastify() {
  if (!toastify) {
    // Its stylesheet comes with it (it was render-blocking on every page while no toast showed).
    toastify = Promise.all([import("react-toastify/unstyled"), import("react-toastify/ReactToastify.css")]).then(([module]) => module);
    wanted = true;
    for (const listener of listeners) listener();
  }
  return toastify;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const LazyToastContainer = lazy(() => loadToastify().then((module) => ({ default: module.ToastContainer })));

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

/** How many toasts show at once (issue 15: four stacked toasts covered half a phone); the rest wait their turn. */
export const TOASTS_AT_ONCE = { phone: 2, desktop: 3 };

/**
 * SPEC §8: toasts auto-close after 5000 ms, pause on hover, Alt+T focuses them (react-toastify's
 * defaults, set explicitly). They sit at the bottom (full width on phones), not SPEC's top-right, where
 * they covered the header's controls (WCAG 2.4.11; docs/decisions/0021), and
 * take the page's theme. Where a toast still lies over a control (a row's Delete at the bottom of the
 * screen), it gets out of the way: while the pointer is over a toast, the toasts pause (SPEC's pause
 * on hover) and turn faint and click-through (app.css), so the control beneath shows and takes the
 * click; a control reached with the keyboard is scrolled clear of them (app.css). With reduced motion
 * the countdown bar is hidden (it still times the close: react-toastify closes a toast when the
 * bar's animation ends) and app.css stills the entrances.
 */
export function Toasts({ flash }: { flash: FlashToast | null | undefined }) {
  const { pathname } = useLocation();
  const theme = useTheme();
  const reducedMotion = useSyncExternalStore(subscribeToMotion, () => window.matchMedia(REDUCED_MOTION).matches, () => false);
  const phone = useSyncExternalStore(subscribeToPhone, () => window.matchMedia(PHONE).matches, () => false);
  const mounted = useSyncExternalStore(subscribe, () => wanted, () => false);
  const signedIn = !!(useRouteLoaderData("root") as { user?: unknown } | undefined)?.user;
  const wasSignedIn = useRef(signedIn);
  useEffect(() => {
    // Signed out: no toast of the session outlives it (shown or waiting), and the next sign-in is welcomed.
    if (!signedIn) forgetWelcome();
    if (wasSignedIn.current && !signedIn && toastify) {
      void toastify.then((module) => {
        module.toast.clearWaitingQueue();
        module.toast.dismiss();
      });
    }
    wasSignedIn.current = signedIn;
  }, [signedIn]);
  useEffect(() => {
    if (!mounted) return;
    // Only pages that raised a toast need it: it comes in a chunk of its own, with react-toastify.
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import("./toast-peek").then(({ seeThroughUnderPointer }) => {
      if (!cancelled) stop = seeThroughUnderPointer(loadToastify);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [mounted]);
  useEffect(() => {
    // A flash message that lands on the dashboard closes after 3 s like the dashboard's own (SPEC §9).
    if (flash) toast[flash.type](flash.message, pathname === "/dashboard" ? { autoClose: DASHBOARD_TOAST_MS } : undefined);
    // Only a new flash raises a toast; the path is read when it arrives.
  }, [flash]);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <LazyToastContainer
        position="bottom-right"
        theme={theme}
        limit={phone ? TOASTS_AT_ONCE.phone : TOASTS_AT_ONCE.desktop}
        hideProgressBar={reducedMotion}
        autoClose={5000}
        // Hover is followed by seeThroughUnderPointer (a click-through toast has no hover of its own).
        pauseOnHover={false}
        hotKeys={(event) => event.altKey && event.code === "KeyT"}
      />
    </Suspense>
  );
}

/** Toasts raised in the dashboard area close after 3 s (SPEC §9). */
export const DASHBOARD_TOAST_MS = 3000;

const raise =
  (type: FlashToast["type"]) =>
  (message: string, options?: ToastOptions): void => {
    void loadToastify().then((module) => module.toast[type](message, options));
  };

/** react-toastify's `toast.info/success/error/warning`, loading it on first use. */
export const toast = { info: raise("info"), success: raise("success"), error: raise("error"), warning: raise("warning") };
