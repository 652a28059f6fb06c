import { useLocation, useNavigate } from "react-router";

/**
 * Plain <a href="/..."> links that navigate in the app as React Router's <Link> does, through one
 * click handler on the element around them (the shell's bar, the tool grid, the content list...).
 * A <Link> resolves its path and builds its own handler with several hooks on every render; the
 * shell, the tools and the list have about 130 links on the dashboard (docs/performance.md: 6% of a page's CPU).
 *
 * What <Link> does on a click, for a link inside `onClick`'s element: a plain left click on a link
 * to a path of this site (no target other than _self, no download, no modifier key) is prevented and
 * becomes a client-side navigation, replacing the history entry when the link points where the page
 * already is. Anything else (a new tab, a download, a link elsewhere, a hash in the page) is left to
 * the browser, as is every click before hydration and without JavaScript.
 */
export function useFollowLinksInApp(): (event: React.MouseEvent<HTMLElement>) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return (event) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    const link = (event.target as Element).closest?.("a");
    if (!link || !event.currentTarget.contains(link)) return;
    const href = link.getAttribute("href");
    if (!href || !href.startsWith("/") || href.startsWith("//")) return;
    if ((link.target && link.target !== "_self") || link.hasAttribute("download")) return;
    event.preventDefault();
    // `data-keep-scroll`: the page stays where it is scrolled, as <Link preventScrollReset> does.
    navigate(href, {
      replace: href === location.pathname + location.search + location.hash,
      preventScrollReset: link.hasAttribute("data-keep-scroll"),
    });
  };
}
