import { PROJECT_SLOTS, type ProjectSlot } from "~/shared/project-rules";
import { slotLabel } from "./project-media-icons";

/**
 * The project editor's file slots (./project-editor.tsx): voice, video and image, each a select of the
 * person's files of the kinds it takes and a preview of the chosen one.
 */

/** One of the person's files a slot can take, as the editor lists them. */
export interface MediaChoice {
  id: string;
  name: string;
  kind: string;
}

/** The slots chosen with a select here; music is chosen in the Music generator (one place for it). */
export type FileSlot = Exclude<ProjectSlot, "music">;
export const FILE_SLOTS = PROJECT_SLOTS.filter((slot): slot is FileSlot => slot !== "music");
/** The form's fields carry file ids (and a track id for music); the model takes ids or names. */
const SLOT_FIELDS: Record<FileSlot, string> = { voice: "voice_file", video: "video_file", image: "image_file" };
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

/** One slot: a select of the person's files of the kinds it takes (works without JavaScript) and a preview. */
export function MediaSlot({
  slot,
  choices,
  value,
  onChange,
}: {
  slot: FileSlot;
  choices: MediaChoice[];
  value: string;
  onChange: (value: string) => void;
}) {
  const chosen = choices.find((choice) => choice.id === value);
  const url = chosen ? `/media/${encodeURIComponent(chosen.id)}` : undefined;
  const label = slotLabel(slot);
  return (
    <div className="project-slot" data-slot={slot}>
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
            {`${choice.name} (${KIND_NOTES[choice.kind] ?? choice.kind})`}
          </option>
        ))}
      </select>
      {url && chosen ? <SlotPreview slot={slot} url={url} name={chosen.name} /> : null}
      {choices.length === 0 ? <p className="muted project-slot-empty">{EMPTY_SLOT_HINTS[slot]}</p> : null}
    </div>
  );
}

const EMPTY_SLOT_HINTS: Record<FileSlot, string> = {
  voice: "No voice clips yet: upload one in Voices or generate one below.",
  video: "No videos yet: upload one in the Video Hub or generate one below.",
  image: "No images yet: make one with the Drawing Pad or generate one below.",
};

function SlotPreview({ slot, url, name }: { slot: FileSlot; url: string; name: string }) {
  if (slot === "image") return <img className="project-slot-preview" src={url} alt={name} />;
  if (slot === "video")
    return <video className="project-slot-preview" src={url} controls preload="metadata" aria-label={name} />;
  return <audio className="project-slot-preview" src={url} controls preload="none" aria-label={name} />;
}
