import type { IconName } from "~/common/icons";
import { MUSIC_DEMOS } from "~/common/media/music-demos";
import { PROJECT_SLOTS, type ProjectSlot } from "~/common/project-rules";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import { SLOT_EMPTY, SLOT_LABELS, SLOT_NAMED } from "./project-texts";

/** docs/screens.md#projects: four media icons (voices, music, videos, images), dimmed when the project has no such file. */
const SLOT_ICONS: Record<ProjectSlot, IconName> = {
  voice: "mic",
  music: "music",
  video: "clapperboard",
  image: "image",
};

/** The slot's name in English (a catalogue key: a screen shows `t(slotLabel(slot))`). */
export const slotLabel = (slot: ProjectSlot) => SLOT_LABELS[slot];

/** A bundled track by its file name (`demo1.mp3`, as the API's music_file says) or id: its human name. */
function humanName(slot: ProjectSlot, name: string): string {
  if (slot !== "music") return name;
  return MUSIC_DEMOS.find((track) => name === track.id || name === `${track.id}.mp3`)?.title ?? name;
}

/** `names` gives each slot's attached file name, or null when the slot is empty; a track is named by its title. */
export function ProjectMediaIcons({ names }: { names: Record<ProjectSlot, string | null> }) {
  const { t } = useT();
  return (
    <ul className="project-media-icons" aria-label={t("Attached media")}>
      {PROJECT_SLOTS.map((slot) => {
        const name = names[slot] === null ? null : humanName(slot, names[slot]);
        const description = name ? t(SLOT_NAMED[slot], { name }) : t(SLOT_EMPTY[slot]);
        return (
          <li
            key={slot}
            className={name ? "project-media-icon" : "project-media-icon project-media-icon-absent"}
            data-slot={slot}
            data-present={name ? "true" : "false"}
            title={description}
          >
            <Icon name={SLOT_ICONS[slot]} />
            <span className="visually-hidden">{description}</span>
          </li>
        );
      })}
    </ul>
  );
}
