import { ICON_SPRITE_URL, type IconName } from "~/common/icons";

/**
 * One lucide icon from the sprite (see ~/common/icons). Decorative: the control around it carries
 * the words (an icon-only control gives itself an aria-label). An <svg> with no name is left out
 * of the accessibility tree already, so no aria-hidden: the dashboard's HTML budget counts each byte.
 */
export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg className={className ? `i ${className}` : "i"}>
      <use href={`${ICON_SPRITE_URL}#${name}`} />
    </svg>
  );
}
