import { data } from "react-router";
import { screenTranslator } from "~/auth/screen-language.server";
import { useT } from "~/components/ui/i18n";
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
 * GET and HEAD only: the middleware answers any other method 405.
 */
export const handle: ScriptsHandle = { withoutScripts: true };

export const middleware: Route.MiddlewareFunction[] = [sharedPathMiddleware({ translator: screenTranslator })];

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: sharedStylesheet }];

export async function loader({ request, params }: Route.LoaderArgs) {
  const page = await sharedPage(params.token, publicOrigin(request), request.method);
  return data(page, { status: sharedPageStatus(page) });
}

const SITE = "Creative AI Studio";

/** The page's title and link previews (Open Graph, Twitter cards) for chat apps; never indexed. */
function SharedHead({ page }: { page: Route.ComponentProps["loaderData"] }) {
  const { t } = useT();
  const robots = <meta name="robots" content="noindex" />;
  if (page.state !== "shared") {
    return (
      <>
        <title>
          {page.state === "gone" ? t("Link ended · Creative AI Studio") : t("Page not found · Creative AI Studio")}
        </title>
        {robots}
      </>
    );
  }
  const title = page.title || t("Untitled");
  const description = page.content?.body.slice(0, 200) || page.project?.description.slice(0, 200) || null;
  return (
    <>
      <title>{t("{{title}} · Creative AI Studio", { title })}</title>
      <meta name="description" content={description ?? t("Shared from Creative AI Studio.")} />
      {robots}
      <meta property="og:title" content={title} />
      <meta property="og:type" content="website" />
      <meta property="og:url" content={page.pageUrl} />
      <meta property="og:site_name" content={SITE} />
      {description ? <meta property="og:description" content={description} /> : null}
      {page.previewImage ? (
        <>
          <meta property="og:image" content={page.previewImage} />
          <meta name="twitter:card" content="summary_large_image" />
          <meta name="twitter:image" content={page.previewImage} />
        </>
      ) : (
        <meta name="twitter:card" content="summary" />
      )}
      <meta name="twitter:title" content={title} />
    </>
  );
}

export default function Shared({ loaderData: page }: Route.ComponentProps) {
  return (
    <>
      <SharedHead page={page} />
      {page.state === "missing" ? (
        <SharedMissing />
      ) : page.state === "gone" ? (
        <SharedGone />
      ) : (
        <SharedView page={page} />
      )}
    </>
  );
}
