import type { IconName } from "~/common/icons";
import { MUSIC_DEMOS } from "~/common/media/music-demos";
import { PROJECT_SLOTS, type ProjectSlot } from "~/common/project-rules";
import { Icon } from "~/components/ui/icon";

/** docs/screens.md#projects: four media icons (voices, music, videos, images), dimmed when the project has no such file. */
const SLOT_ICONS: Record<ProjectSlot, { icon: IconName; label: string }> = {
  voice: { icon: "mic", label: "Voice" },
  music: { icon: "music", label: "Music" },
  video: { icon: "clapperboard", label: "Video" },
  image: { icon: "image", label: "Image" },
};

export const slotLabel = (slot: ProjectSlot) => SLOT_ICONS[slot].label;

/** A bundled track by its file name (`demo1.mp3`, as the API's music_file says) or id: its human name. */
function humanName(slot: ProjectSlot, name: string): string {
  if (slot !== "music") return name;
  return MUSIC_DEMOS.find((track) => name === track.id || name === `${track.id}.mp3`)?.title ?? name;
}

/** `names` gives each slot's attached file name, or null when the slot is empty; a track is named by its title. */
export function ProjectMediaIcons({ names }: { names: Record<ProjectSlot, string | null> }) {
  return (
    <ul className="project-media-icons" aria-label="Attached media">
      {PROJECT_SLOTS.map((slot) => {
        const name = names[slot] === null ? null : humanName(slot, names[slot]);
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
