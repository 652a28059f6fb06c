import { SHARE_GONE_TEXT } from "~/common/sharing/shared-page-view";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";

/**
 * The shared page's frame (docs/screens.md#shared-page): the studio's look and name, none of its
 * navigation. Plain links: the page runs no script.
 */
export function SharedFrame({ children }: { children: React.ReactNode }) {
  const { t } = useT();
  return (
    <div className="shared-page">
      <header className="shared-header">
        <a className="shared-brand" href="/">
          <Icon name="sparkles" />
          Creative AI Studio
        </a>
      </header>
      <main className="page page-narrow shared-main" id="main">
        {children}
      </main>
      <footer className="shared-footer">
        <a href="/">{t("Made with Creative AI Studio")}</a>
      </footer>
    </div>
  );
}

/** 410: the link was revoked, expired, used up, or its target or owner is gone. */
export function SharedGone() {
  const { t } = useT();
  return (
    <SharedFrame>
      <div className="card shared-gone">
        <h1>{t(SHARE_GONE_TEXT)}</h1>
        <a className="button button-primary" href="/">
          {t("Return Home")}
        </a>
      </div>
    </SharedFrame>
  );
}

/** 404: no such link (or sharing is off), in the app's not-found look. */
export function SharedMissing() {
  const { t } = useT();
  return (
    <main className="page page-narrow error-page">
      <h1>404</h1>
      <p>{t("This page does not exist.")}</p>
      <a className="button button-primary" href="/">
        {t("Return Home")}
      </a>
    </main>
  );
}
