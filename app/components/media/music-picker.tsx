import { MUSIC_DEMOS } from "~/common/media/music-demos";
import { useT } from "~/components/ui/i18n";
import { Generator } from "./generator-parts";

/**
 * docs/screens.md#screens-and-routes: Music is marked coming soon, with the three demo tracks' players.
 * The project's track is chosen in the form's Media group (a select, without JavaScript too); with
 * JavaScript each track here also has "Use for the project", which sets that select. The names are
 * the tracks' own, never their files'.
 */
export function MusicPicker({ onUse }: { onUse?: (trackId: string) => void }) {
  const { t } = useT();
  return (
    <Generator title={t("Music (coming soon)")} icon="music" testId="generator-music">
      <p className="muted">
        {t(
          "Music generation is coming soon. Meanwhile, listen to the bundled tracks; the project's track is chosen under Media.",
        )}
      </p>
      <ul className="generator-tracks">
        {MUSIC_DEMOS.map((track) => (
          <li key={track.id} className="generator-track">
            <span className="generator-track-title">{t(track.title)}</span>
            <audio src={track.src} controls preload="none" aria-label={t("Play {{name}}", { name: t(track.title) })} />
            {onUse ? (
              <button
                type="button"
                className="button button-small"
                onClick={() => onUse(track.id)}
                aria-label={t("Use {{name}} for the project", { name: t(track.title) })}
              >
                {t("Use for the project")}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </Generator>
  );
}
