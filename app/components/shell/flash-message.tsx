import { useRouteLoaderData } from "react-router";
import type { loader } from "~/root";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useT } from "~/components/ui/i18n";

/** What a media screen says about the last thing the person did (in the page; toasts need JavaScript). */
export interface Outcome {
  ok: boolean;
  message: string;
  /** The server's reason, e.g. "File is too large (the limit is 25 MiB)". */
  detail?: string | null;
}

export function OutcomeMessage({ outcome }: { outcome: Outcome | null | undefined }) {
  if (!outcome) return null;
  return (
    <p
      className={`message ${outcome.ok ? "message-success" : "message-error"}`}
      role={outcome.ok ? "status" : "alert"}
      data-testid="media-outcome"
    >
      {outcome.message}
      {outcome.detail ? <span className="message-detail">{outcome.detail}</span> : null}
    </p>
  );
}

/**
 * The flash message of a plain-form redirect (e.g. "🗑️ File deleted"), shown in the page until the
 * app is hydrated (and always without JavaScript); once hydrated the toast shows it.
 */
export function FlashMessage() {
  const { t } = useT();
  const hydrated = useHydrated();
  const rootData = useRouteLoaderData<typeof loader>("root");
  const flash = rootData?.toast;
  if (hydrated || !flash) return null;
  // Said in the screen's language when it was made; an English text left by an older answer is looked up.
  return <OutcomeMessage outcome={{ ok: flash.type !== "error", message: t(flash.message) }} />;
}

/**
 * Toasts need JavaScript. Until the page is hydrated (and always without JavaScript) the flash
 * message of a plain-form redirect is also shown in the page; once hydrated the toast shows it.
 */
export function FlashFallback() {
  const { t } = useT();
  const hydrated = useHydrated();
  const rootData = useRouteLoaderData<typeof loader>("root");
  const flash = rootData?.toast;
  if (hydrated || !flash) return null;
  return (
    <p
      className={`message ${flash.type === "error" ? "message-error" : "message-success"}`}
      role={flash.type === "error" ? "alert" : "status"}
    >
      {t(flash.message)}
    </p>
  );
}
