import type { IconName } from "~/shared/icons";
import { PROJECT_SLOTS, type ProjectSlot } from "~/shared/project-rules";
import { Icon } from "./icon";

/** SPEC §2 Projects: four media icons (voices, music, videos, images), dimmed when the project has no such file. */
const SLOT_ICONS: Record<ProjectSlot, { icon: IconName; label: string }> = {
  voice: { icon: "mic", label: "Voice" },
  music: { icon: "music", label: "Music" },
  video: { icon: "clapperboard", label: "Video" },
  image: { icon: "image", label: "Image" },
};

export const slotLabel = (slot: ProjectSlot) => SLOT_ICONS[slot].label;

/** `names` gives each slot's attached file name, or null when the slot is empty. */
export function ProjectMediaIcons({ names }: { names: Record<ProjectSlot, string | null> }) {
  return (
    <ul className="project-media-icons" aria-label="Attached media">
      {PROJECT_SLOTS.map((slot) => {
        const name = names[slot];
        const { icon, label } = SLOT_ICONS[slot];
        const description = name ? `${label}: ${name}` : `No ${label.toLowerCase()}`;
        return (
          <li
            key={slot}
            className={name ? "project-media-icon" : "project-media-icon project-media-icon-absent"}
            data-slot={slot}
            data-present={name ? "true" : "false"}
            title={description}
          >
            <Icon name={icon} />
            <span className="visually-hidden">{description}</span>
          </li>
        );
      })}
    </ul>
  );
}
