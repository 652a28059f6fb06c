import { MUSIC_DEMOS } from "~/common/media/music-demos";
import type { ProjectSlot } from "~/common/project-rules";
import { slotLabel } from "./project-media-icons";

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
  voice: "voice clip",
  speech: "generated speech",
  video: "uploaded video",
  aivideo: "AI video",
  image: "image",
  sketch: "sketch result",
  photo: "photo",
  clip: "camera clip",
  memo: "voice memo",
  music: "bundled track",
};

const choiceText = (choice: MediaChoice) => `${choice.name} (${KIND_NOTES[choice.kind] ?? choice.kind})`;

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
  const chosen = choices.find((choice) => choice.id === value);
  const url = chosen ? previewUrl(slot, chosen.id) : "";
  const label = slotLabel(slot);
  return (
    <div className="project-slot" data-slot={slot} data-testid={`slot-${slot}`}>
      <label htmlFor={`project-${slot}`}>{label}</label>
      <select
        id={`project-${slot}`}
        name={SLOT_FIELDS[slot]}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{`No ${label.toLowerCase()}`}</option>
        {choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choiceText(choice)}
          </option>
        ))}
      </select>
      {chosen ? (
        <p className="project-slot-name" data-testid={`slot-${slot}-name`}>
          {choiceText(chosen)}
        </p>
      ) : null}
      {url && chosen ? <SlotPreview slot={slot} url={url} name={chosen.name} /> : null}
      {choices.length === 0 && slot !== "music" ? (
        <p className="muted project-slot-empty">{EMPTY_SLOT_HINTS[slot]}</p>
      ) : null}
    </div>
  );
}

const EMPTY_SLOT_HINTS: Record<Exclude<ProjectSlot, "music">, string> = {
  voice: "No voice clips yet: upload one in Voices or generate one under Generators.",
  video: "No videos yet: upload one in the Video Hub or generate one under Generators.",
  image: "No images yet: make one with the Drawing Pad or generate one under Generators.",
};

function SlotPreview({ slot, url, name }: { slot: ProjectSlot; url: string; name: string }) {
  const label = `${slotLabel(slot)}: ${name}`;
  if (slot === "image") return <img className="project-slot-preview" src={url} alt={label} />;
  if (slot === "video")
    return <video className="project-slot-preview" src={url} controls preload="metadata" aria-label={label} />;
  return <audio className="project-slot-preview" src={url} controls preload="none" aria-label={label} />;
}
