import { useRef, useState } from "react";
import { DASHBOARD_TOOLS, moveTool, type ToolId } from "~/common/tools";
import { Icon } from "~/components/ui/icon";
import { useFollowLinksInApp } from "~/components/shell/in-app-links";
import { useT } from "~/components/ui/i18n";

const toolById = new Map(DASHBOARD_TOOLS.map((tool) => [tool.id, tool]));

interface ToolGridProps {
  order: ToolId[];
  editing: boolean;
  /** Called with the new order when a drag ends (mouse, pen or touch). */
  onReorder: (order: ToolId[]) => void;
  /** Renders the move controls of one tool (plain forms, so they work without JavaScript). */
  renderMoveControls: (id: ToolId, index: number) => React.ReactNode;
}

/**
 * The dashboard's tool buttons. In edit mode they reorder by dragging with a mouse, pen or finger
 * (Pointer Events cover all three), and by the move buttons for keyboards and no-JavaScript use.
 */
export function ToolGrid({ order, editing, onReorder, renderMoveControls }: ToolGridProps) {
  const { t } = useT();
  const [dragOrder, setDragOrder] = useState<ToolId[] | null>(null);
  const dragging = useRef<{ id: ToolId; pointerId: number } | null>(null);
  const shown = dragOrder ?? order;
  const followLink = useFollowLinksInApp();

  const onPointerDown = (event: React.PointerEvent<HTMLLIElement>, id: ToolId) => {
    if (!editing || (event.target as HTMLElement).closest("button, form")) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    dragging.current = { id, pointerId: event.pointerId };
    setDragOrder(order);
  };

  const onPointerMove = (event: React.PointerEvent<HTMLLIElement>) => {
    const drag = dragging.current;
    if (!drag || drag.pointerId !== event.pointerId) return;
    const over = document.elementFromPoint(event.clientX, event.clientY)?.closest<HTMLElement>("[data-tool-id]");
    const overId = over?.dataset.toolId as ToolId | undefined;
    if (!overId || overId === drag.id) return;
    setDragOrder((current) => {
      const base = current ?? order;
      return moveTool(base, drag.id, base.indexOf(overId));
    });
  };

  const endDrag = (event: React.PointerEvent<HTMLLIElement>) => {
    const drag = dragging.current;
    if (!drag || drag.pointerId !== event.pointerId) return;
    dragging.current = null;
    if (dragOrder && dragOrder.join() !== order.join()) onReorder(dragOrder);
    setDragOrder(null);
  };

  return (
    <ul className={editing ? "tool-grid tool-grid-editing" : "tool-grid"} aria-label={t("Tools")} onClick={followLink}>
      {shown.map((id, index) => {
        const tool = toolById.get(id)!;
        const isDragged = dragging.current?.id === id;
        return (
          <li
            key={id}
            // Only edit mode needs the id (dragging finds the tool under the pointer); a link's icon is its href's.
            data-tool-id={editing ? id : undefined}
            className={isDragged ? "tool-dragging" : undefined}
            onPointerDown={(event) => onPointerDown(event, id)}
            onPointerMove={onPointerMove}
            onPointerUp={endDrag}
            onPointerCancel={endDrag}
          >
            {editing ? (
              <div className="tool-button tool-button-editing" aria-roledescription={t("draggable tool")}>
                <Icon name="grip-vertical" className="tool-handle" />
                <span className="tool-label">{t(tool.label)}</span>
                {renderMoveControls(id, index)}
              </div>
            ) : (
              // A plain link styled by place (.tool-grid a), its label its text: 13 on every dashboard,
              // followed in the app by the grid (in-app-links.ts).
              <a href={tool.path}>{t(tool.label)}</a>
            )}
          </li>
        );
      })}
    </ul>
  );
}
