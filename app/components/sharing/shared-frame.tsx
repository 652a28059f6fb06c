import { SHARE_GONE_TEXT } from "~/common/sharing/shared-page-view";
import { Icon } from "~/components/ui/icon";

/**
 * The shared page's frame (docs/screens.md#shared-page): the studio's look and name, none of its
 * navigation. Plain links: the page runs no script.
 */
export function SharedFrame({ children }: { children: React.ReactNode }) {
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
        <a href="/">Made with Creative AI Studio</a>
      </footer>
    </div>
  );
}

/** 410: the link was revoked, expired, used up, or its target or owner is gone. */
export function SharedGone() {
  return (
    <SharedFrame>
      <div className="card shared-gone">
        <h1>{SHARE_GONE_TEXT}</h1>
        <a className="button button-primary" href="/">
          Return Home
        </a>
      </div>
    </SharedFrame>
  );
}

/** 404: no such link (or sharing is off), in the app's not-found look. */
export function SharedMissing() {
  return (
    <main className="page page-narrow error-page">
      <h1>404</h1>
      <p>This page does not exist.</p>
      <a className="button button-primary" href="/">
        Return Home
      </a>
    </main>
  );
}
