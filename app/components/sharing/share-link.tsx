import { useEffect, useRef, useState } from "react";
import { expiryText, viewsText, type SharedLink } from "~/common/sharing/share-link-view";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import { useHydrated } from "~/components/ui/use-hydrated";

/**
 * A share link in a read-only field with Copy link (docs/screens.md#sharing). With JavaScript, Copy puts
 * it on the clipboard and says "Copied"; where the clipboard is refused it selects the text for the
 * person's own copy. Without JavaScript the field is there to select.
 */
export function LinkField({ link, label }: { link: SharedLink; label?: string }) {
  const { t } = useT();
  const inputId = `share-url-${link.id}`;
  // The sealed token no longer opens (the server's secret changed): the link cannot be shown again.
  if (!link.url) return <p className="muted">{t("This link can no longer be shown; make a new one.")}</p>;
  return (
    <div className="share-link-field">
      <label htmlFor={inputId}>{label ?? t("Link")}</label>
      <div className="share-link-row">
        <input
          id={inputId}
          className="share-link-input"
          type="url"
          readOnly
          value={link.url}
          onFocus={(event) => event.currentTarget.select()}
          data-testid="share-url"
        />
        <CopyLinkButton url={link.url} inputId={inputId} />
      </div>
    </div>
  );
}

function CopyLinkButton({ url, inputId }: { url: string; inputId: string }) {
  const { t } = useT();
  const hydrated = useHydrated();
  const [state, setState] = useState<"idle" | "copied" | "selected">("idle");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  if (!hydrated) return null;
  const onCopy = async () => {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(url);
      setState("copied");
    } catch {
      const input = document.getElementById(inputId);
      if (input instanceof HTMLInputElement) {
        input.focus();
        input.select();
      }
      setState("selected");
    }
    timer.current = setTimeout(() => setState("idle"), 4000);
  };
  return (
    <>
      <button
        type="button"
        className="button button-small share-copy"
        onClick={() => void onCopy()}
        data-state={state}
        aria-describedby={`${inputId}-copy-status`}
      >
        {state === "copied" ? <Icon name="check" /> : null}
        {state === "copied" ? t("Copied") : t("Copy link")}
      </button>
      <span id={`${inputId}-copy-status`} className="share-copy-status" role="status">
        {state === "copied"
          ? t("Link copied to the clipboard.")
          : state === "selected"
            ? t("The link is selected: copy it with Ctrl+C (⌘C).")
            : ""}
      </span>
    </>
  );
}

/** "3 / 10 views · Expires …", for a link's row. */
export function LinkFacts({ link }: { link: SharedLink }) {
  const translator = useT();
  const expiry = expiryText(link, translator);
  return (
    <span className="muted share-facts" data-testid="share-facts">
      {viewsText(link, translator)} ·{" "}
      {link.state === "active" && link.expires_at ? <time dateTime={link.expires_at}>{expiry}</time> : expiry}
    </span>
  );
}
