import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import {
  sharePanelUrl,
  withoutSharePanel,
  type ScreenSharing,
  type SharedKind,
  type SharingOptions,
} from "~/common/sharing/share-link-view";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import { SharePanel } from "./share-panel";
import { useHydrated } from "~/components/ui/use-hydrated";

/**
 * A Share control (docs/screens.md#sharing). Without JavaScript it is a link to the screen with
 * ?share={id}, where the panel opens in the page; with it, the same link opens a modal dialog with the
 * panel: the focus goes to its first field, Escape or Close shuts it, and the focus returns to Share.
 */
export function ShareControl({
  kind,
  id,
  title,
  href,
  action,
  options,
  className = "button button-small",
  labelClassName,
}: {
  kind: SharedKind;
  id: string;
  title: string;
  /** The screen with ?share={id}: where Share goes without JavaScript, and where the panel posts. */
  href: string;
  action?: string;
  options: SharingOptions;
  className?: string;
  /** The label's class (the library's cards hide it on a phone, the icon and the name stay). */
  labelClassName?: string;
}) {
  const { t } = useT();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLAnchorElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = `share-dialog-${kind}-${id}`;

  useEffect(() => {
    const node = dialog.current;
    if (!open || !node) return;
    if (!node.open) node.showModal();
    // The first choice to make, not the Close button before it.
    node.querySelector<HTMLElement>(".share-form select")?.focus();
    return () => {
      if (node.open) node.close();
    };
  }, [open]);

  const close = () => {
    dialog.current?.close();
    setOpen(false);
    opener.current?.focus();
  };

  return (
    <>
      {/* A plain link (a <Link> costs a page's render more, decision 0081): once hydrated a click opens the
          dialog; before that, and without JavaScript, it loads the share screen. */}
      <a
        ref={opener}
        href={href}
        className={className}
        aria-label={t("Share {{title}}", { title })}
        aria-haspopup={hydrated ? "dialog" : undefined}
        data-keep-scroll
        onClick={(event) => {
          if (!hydrated) return;
          event.preventDefault();
          setOpen(true);
        }}
        data-testid="share-control"
      >
        <Icon name="send" />
        <span className={labelClassName}>{t("Share")}</span>
      </a>
      {open ? (
        <dialog
          ref={dialog}
          className="card share-dialog"
          aria-labelledby={headingId}
          aria-modal="true"
          onCancel={(event) => {
            event.preventDefault();
            close();
          }}
        >
          <div className="share-dialog-head">
            <h2 id={headingId} className="share-dialog-title">
              {t("Share “{{title}}”", { title })}
            </h2>
            <button type="button" className="button button-ghost button-small" onClick={close} aria-label={t("Close")}>
              <Icon name="x" />
            </button>
          </div>
          <SharePanel kind={kind} id={id} title={title} action={action ?? href} options={options} panel={null} />
        </dialog>
      ) : null}
    </>
  );
}

/**
 * The panel in the page, for a Share followed without JavaScript (?share={id} on `screen`), with its
 * own heading and Close; nothing when no panel is open or its target is not on this page.
 */
export function SharePanelInPage({
  sharing,
  screen,
  titleOf,
}: {
  sharing: ScreenSharing | null;
  /** The screen's address (its query kept, the panel's own left out). */
  screen: string;
  titleOf: (id: string) => string | undefined;
}) {
  const { t } = useT();
  const panel = sharing?.panel;
  const title = panel ? titleOf(panel.target_id) : undefined;
  if (!sharing || !panel || title === undefined) return null;
  const headingId = `share-panel-${panel.kind}-${panel.target_id}`;
  return (
    <section className="card share-in-page" aria-labelledby={headingId} id="share">
      <div className="share-dialog-head">
        <h2 id={headingId} className="share-dialog-title">
          {t("Share “{{title}}”", { title })}
        </h2>
        <Link className="button button-ghost button-small" to={withoutSharePanel(screen)} preventScrollReset>
          <Icon name="x" />
          {t("Close")}
        </Link>
      </div>
      <SharePanel
        kind={panel.kind}
        id={panel.target_id}
        title={title}
        action={sharePanelUrl(screen, panel.target_id)}
        options={sharing.options}
        panel={panel}
      />
    </section>
  );
}
