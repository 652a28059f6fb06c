import { lazy, Suspense, useEffect, useRef, useSyncExternalStore } from "react";
import { useLocation, useRouteLoaderData } from "react-router";
import { forgetWelcome } from "~/browser/welcome";
import type { ToastOptions } from "react-toastify/unstyled";
import { useTheme } from "./theme-toggle";
import { startsWithEmoji, toastStack } from "./toast-peek";
import type { loader } from "~/root";
import { useT } from "~/components/ui/i18n";

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
const shownToasts = toastStack();

function loadToastify() {
  if (!toastify) {
    toastify = import("react-toastify/unstyled").then((module) => {
      module.toast.onChange((item) => {
        if (item.status === "removed") shownToasts.gone(item.id);
      });
      return module;
    });
    wanted = true;
    for (const listener of listeners) listener();
  }
  return toastify;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

// The container, its settings and its stylesheet (toast-container.tsx) come with react-toastify.
const LazyToastContainer = lazy(() => import("./toast-container"));

/** Mounts the toasts' container once a toast is raised, raises the flash toast, and clears toasts on sign-out. */
export function Toasts({ flash }: { flash: FlashToast | null | undefined }) {
  const { t } = useT();
  const { pathname } = useLocation();
  const theme = useTheme();
  const mounted = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  const signedIn = !!useRouteLoaderData<typeof loader>("root")?.user;
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
    // A flash message that lands on the dashboard closes after 3 s like the dashboard's own (docs/screens.md#constants-and-limits).
    // Said in the screen's language when it was made; an English text left by an older answer is looked up.
    if (flash)
      toast[flash.type](t(flash.message), pathname === "/dashboard" ? { autoClose: DASHBOARD_TOAST_MS } : undefined);
    // Only a new flash raises a toast; the path is read when it arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [flash]);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <LazyToastContainer theme={theme} />
    </Suspense>
  );
}

/** Toasts raised in the dashboard area close after 3 s (docs/screens.md#constants-and-limits). */
export const DASHBOARD_TOAST_MS = 3000;

const raise =
  (type: FlashToast["type"]) =>
  (message: string, options?: ToastOptions): void => {
    void loadToastify().then((module) => {
      // A text with its own emoji gets no second, drawn icon.
      const id = module.toast[type](message, startsWithEmoji(message) ? { icon: false, ...options } : options);
      // At most three at once: the oldest goes for the newest (docs/screens.md "Shell and toasts").
      for (const old of shownToasts.shown(id)) module.toast.dismiss(old);
    });
  };

/** react-toastify's `toast.info/success/error/warning`, loading it on first use. */
export const toast = {
  info: raise("info"),
  success: raise("success"),
  error: raise("error"),
  warning: raise("warning"),
};
