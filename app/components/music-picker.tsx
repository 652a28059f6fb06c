import { MUSIC_DEMOS } from "~/shared/music-demos";
import { Generator } from "./generator-parts";

/**
 * docs/screens.md#screens-and-routes: Music is marked coming soon, with the three demo tracks' players. Choosing one (or none) is
 * the project form's `music_file` field (a radio group tied to the form by its id), so it is the one
 * place for music and it works without JavaScript; the names are the tracks' own, never their files'.
 */
export function MusicPicker({
  selected,
  onChange,
  form,
}: {
  selected: string;
  onChange: (trackId: string) => void;
  form: string;
}) {
  return (
    <Generator title="Music (coming soon)" icon="music" testId="generator-music">
      <p className="muted">
        Music generation is coming soon. Meanwhile, choose one of the bundled tracks; Save Project keeps it.
      </p>
      <fieldset className="generator-tracks">
        <legend className="visually-hidden">Project music</legend>
        <label className="generator-track">
          <input
            type="radio"
            name="music_file"
            value=""
            form={form}
            checked={selected === ""}
            onChange={() => onChange("")}
          />
          No music
        </label>
        {MUSIC_DEMOS.map((track) => (
          <div key={track.id} className="generator-track">
            <label>
              <input
                type="radio"
                name="music_file"
                value={track.id}
                form={form}
                checked={selected === track.id}
                onChange={() => onChange(track.id)}
              />
              {track.title}
            </label>
            <audio src={track.src} controls preload="none" aria-label={`Play ${track.title}`} />
          </div>
        ))}
      </fieldset>
    </Generator>
  );
}
