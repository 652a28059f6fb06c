import { MUSIC_DEMOS } from "~/common/media/music-demos";
import { msg, type Translator } from "~/common/i18n/translate";
import type { ProjectSlot } from "~/common/project-rules";
import { useT } from "~/components/ui/i18n";
import { SLOT_EMPTY, SLOT_LABELS, SLOT_NAMED } from "./project-texts";

/**
 * The project editor's Media group (./project-editor.tsx): voice, music, video and image, each a
 * select of what it can take (the person's files; the bundled tracks for music), the chosen one's
 * whole name and a preview (docs/screens.md, "Project editor: media and generators").
 */

/** One of the person's files (or a bundled track) a slot can take, as the editor lists them. */
export interface MediaChoice {
  id: string;
  name: string;
  kind: string;
}

/** The form's fields carry file ids (and a track id for music); the model takes ids or names. */
const SLOT_FIELDS: Record<ProjectSlot, string> = {
  voice: "voice_file",
  music: "music_file",
  video: "video_file",
  image: "image_file",
};
const KIND_NOTES: Record<string, string> = {
  voice: msg("voice clip"),
  speech: msg("generated speech"),
  video: msg("uploaded video"),
  aivideo: msg("AI video"),
  image: msg("image"),
  sketch: msg("sketch result"),
  photo: msg("photo"),
  clip: msg("camera clip"),
  memo: msg("voice memo"),
  music: msg("bundled track"),
};

/** "take.mp3 (voice clip)": the name, then what kind of file it is. */
const choiceText = (choice: MediaChoice, t: Translator["t"]) => {
  const note = KIND_NOTES[choice.kind];
  return t("{{name}} ({{kind}})", { name: choice.name, kind: note ? t(note) : choice.kind });
};

/** Where a chosen item plays from: a bundled track's own file, or the person's stored file. */
function previewUrl(slot: ProjectSlot, id: string): string {
  if (slot === "music") return MUSIC_DEMOS.find((track) => track.id === id)?.src ?? "";
  return `/media/${encodeURIComponent(id)}`;
}

/**
 * One slot: a select (works without JavaScript), then the chosen item's whole name (the select
 * cuts long ones) and its preview at the slot's full width.
 */
export function MediaSlot({
  slot,
  choices,
  value,
  onChange,
}: {
  slot: ProjectSlot;
  choices: MediaChoice[];
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useT();
  const chosen = choices.find((choice) => choice.id === value);
  const url = chosen ? previewUrl(slot, chosen.id) : "";
  const label = t(SLOT_LABELS[slot]);
  return (
    <div className="project-slot" data-slot={slot} data-testid={`slot-${slot}`}>
      <label htmlFor={`project-${slot}`}>{label}</label>
      <select
        id={`project-${slot}`}
        name={SLOT_FIELDS[slot]}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{t(SLOT_EMPTY[slot])}</option>
        {choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choiceText(choice, t)}
          </option>
        ))}
      </select>
      {chosen ? (
        <p className="project-slot-name" data-testid={`slot-${slot}-name`}>
          {choiceText(chosen, t)}
        </p>
      ) : null}
      {url && chosen ? <SlotPreview slot={slot} url={url} name={chosen.name} /> : null}
      {choices.length === 0 && slot !== "music" ? (
        <p className="muted project-slot-empty">{t(EMPTY_SLOT_HINTS[slot])}</p>
      ) : null}
    </div>
  );
}

const EMPTY_SLOT_HINTS: Record<Exclude<ProjectSlot, "music">, string> = {
  voice: msg("No voice clips yet: upload one in Voices or generate one under Generators."),
  video: msg("No videos yet: upload one in the Video Hub or generate one under Generators."),
  image: msg("No images yet: make one with the Drawing Pad or generate one under Generators."),
};

function SlotPreview({ slot, url, name }: { slot: ProjectSlot; url: string; name: string }) {
  const { t } = useT();
  const label = t(SLOT_NAMED[slot], { name });
  if (slot === "image") return <img className="project-slot-preview" src={url} alt={label} />;
  if (slot === "video")
    return <video className="project-slot-preview" src={url} controls preload="metadata" aria-label={label} />;
  return <audio className="project-slot-preview" src={url} controls preload="none" aria-label={label} />;
}
