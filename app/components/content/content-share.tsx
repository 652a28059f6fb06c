import { ShareControl, SharePanelInPage } from "~/components/sharing/share-dialog";
import { sharePanelUrl, type ScreenSharing } from "~/common/sharing/share-link-view";

/**
 * The content view's Share control, and its panel in the page when Share was followed without
 * JavaScript; none when the piece is not shown or sharing is off.
 */
export function contentShare({
  item,
  sharing,
}: {
  item: { id: string; title: string } | null;
  sharing?: ScreenSharing | null;
}) {
  if (!item || !sharing) return null;
  const viewUrl = `/content/${encodeURIComponent(item.id)}`;
  return {
    control: (
      <ShareControl
        kind="content"
        id={item.id}
        title={item.title}
        href={sharePanelUrl(viewUrl, item.id)}
        options={sharing.options}
        className="button button-ghost"
      />
    ),
    panel: (
      <SharePanelInPage
        sharing={sharing}
        screen={viewUrl}
        titleOf={(id) => (id === item.id ? item.title : undefined)}
      />
    ),
  };
}
