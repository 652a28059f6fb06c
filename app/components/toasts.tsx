import { useEffect } from "react";
import { useLocation } from "react-router";
import { toast, ToastContainer } from "react-toastify/unstyled";

export interface FlashToast {
  type: "info" | "success" | "error" | "warning";
  message: string;
}

/** SPEC §8: toasts top-right, auto-close 5000 ms, pause on hover, Alt+T focuses them (react-toastify's defaults, set explicitly). */
export function Toasts({ flash }: { flash: FlashToast | null | undefined }) {
  const { pathname } = useLocation();
  useEffect(() => {
    // A flash message that lands on the dashboard closes after 3 s like the dashboard's own (SPEC §9).
    if (flash) toast[flash.type](flash.message, pathname === "/dashboard" ? { autoClose: DASHBOARD_TOAST_MS } : undefined);
    // Only a new flash raises a toast; the path is read when it arrives.
  }, [flash]);
  return (
    <ToastContainer
      position="top-right"
      autoClose={5000}
      pauseOnHover
      hotKeys={(event) => event.altKey && event.code === "KeyT"}
    />
  );
}

/** Toasts raised in the dashboard area close after 3 s (SPEC §9). */
export const DASHBOARD_TOAST_MS = 3000;
export { toast };
