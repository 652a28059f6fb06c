import { data } from "react-router";
import { SharedGone, SharedMissing } from "~/components/sharing/shared-frame";
import type { ScriptsHandle } from "~/components/shell/shell-frame";
import { SharedView } from "~/components/sharing/shared-view";
import { publicOrigin } from "~/lib/http/public-origin.server";
import { sharedPage, sharedPageStatus, sharedPathMiddleware } from "~/services/sharing/shared-page.server";
import sharedStylesheet from "~/styles/shared-page.css?url";
import type { Route } from "./+types/shared";

/**
 * /s/{token}: what a share link shows, for anyone, no account needed (docs/screens.md#shared-page).
 * The page runs no script (its handle; its CSP allows none): a text, a picture, players and links.
 */
export const handle: ScriptsHandle = { withoutScripts: true };

export const middleware: Route.MiddlewareFunction[] = [sharedPathMiddleware({ page: true })];

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: sharedStylesheet }];

export async function loader({ request, params }: Route.LoaderArgs) {
  const page = await sharedPage(params.token, publicOrigin(request), request.method);
  return data(page, { status: sharedPageStatus(page) });
}

const SITE = "Creative AI Studio";

/** Link previews (Open Graph, Twitter cards) for chat apps; never indexed. */
export const meta: Route.MetaFunction = ({ loaderData: page }) => {
  const robots = { name: "robots", content: "noindex" };
  if (page?.state !== "shared")
    return [{ title: `${page?.state === "gone" ? "Link ended" : "Page not found"} · ${SITE}` }, robots];
  const title = page.title || "Untitled";
  const description = page.content?.body.slice(0, 200) || page.project?.description.slice(0, 200) || null;
  return [
    { title: `${title} · ${SITE}` },
    { name: "description", content: description ?? `Shared from ${SITE}.` },
    robots,
    { property: "og:title", content: title },
    { property: "og:type", content: "website" },
    { property: "og:url", content: page.pageUrl },
    { property: "og:site_name", content: SITE },
    ...(description ? [{ property: "og:description", content: description }] : []),
    ...(page.previewImage
      ? [
          { property: "og:image", content: page.previewImage },
          { name: "twitter:card", content: "summary_large_image" },
          { name: "twitter:image", content: page.previewImage },
        ]
      : [{ name: "twitter:card", content: "summary" }]),
    { name: "twitter:title", content: title },
  ];
};

export default function Shared({ loaderData: page }: Route.ComponentProps) {
  if (page.state === "missing") return <SharedMissing />;
  if (page.state === "gone") return <SharedGone />;
  return <SharedView page={page} />;
}
