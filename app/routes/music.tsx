import { useRef, useState } from "react";
import { MediaHeader } from "~/components/shell/page-header";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import { useHydrated } from "~/components/ui/use-hydrated";
import { requireUser } from "~/auth/auth.server";
import { MUSIC_DEMOS } from "~/common/media/music-demos";
import type { Route } from "./+types/music";

export function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context, request);
  return null;
}

/**
 * docs/screens.md#music: the three bundled tracks with play/pause, a Now Playing line and Download. One
 * track plays at a time. Each track is a native <audio> element, so it also plays without JavaScript.
 */
export default function Music() {
  const { t } = useT();
  const hydrated = useHydrated();
  const players = useRef(new Map<string, HTMLAudioElement>());
  /** The track last started, and whether it is playing or paused (docs/screens.md#states-and-transitions Playback). */
  const [track, setTrack] = useState<{ id: string; paused: boolean } | null>(null);
  const playing = track && !track.paused ? track.id : null;

  const toggle = (id: string) => {
    const audio = players.current.get(id);
    if (!audio) return;
    if (audio.paused) void audio.play().catch(() => {});
    else audio.pause();
  };

  const current = MUSIC_DEMOS.find((demo) => demo.id === track?.id);
  return (
    <main className="page media-page">
      <title>{t("Music · Creative AI Studio")}</title>
      <MediaHeader title={t("Music")} icon="music" />
      <p className="now-playing" role="status" aria-live="polite" data-testid="now-playing">
        {!current
          ? t("Now Playing: None")
          : track?.paused
            ? t("Now Playing: {{track}} (paused)", { track: t(current.title) })
            : t("Now Playing: {{track}}", { track: t(current.title) })}
      </p>
      <ul className="media-list music-list" aria-label={t("Tracks")}>
        {MUSIC_DEMOS.map((demo) => (
          <li
            key={demo.id}
            className={`media-item ${playing === demo.id ? "media-item-active" : ""}`}
            data-testid="music-track"
          >
            <div className="media-item-head">
              <span className="media-name">{t(demo.title)}</span>
              <span className="muted">{t(demo.note)}</span>
            </div>
            <audio
              ref={(element) => {
                if (element) players.current.set(demo.id, element);
                else players.current.delete(demo.id);
              }}
              src={demo.src}
              preload="none"
              controls={!hydrated}
              aria-label={t(demo.title)}
              onPlay={(event) => {
                // One track at a time.
                for (const [id, audio] of players.current) if (id !== demo.id) audio.pause();
                setTrack({ id: demo.id, paused: false });
                event.currentTarget.dataset.state = "playing";
              }}
              onPause={(event) => {
                event.currentTarget.dataset.state = "paused";
                setTrack((now) => (now?.id === demo.id ? { id: demo.id, paused: true } : now));
              }}
              onEnded={() => setTrack((now) => (now?.id === demo.id ? null : now))}
            />
            <div className="media-actions">
              {hydrated ? (
                <button
                  type="button"
                  className="button button-primary button-small"
                  onClick={() => toggle(demo.id)}
                  aria-pressed={playing === demo.id}
                >
                  <Icon name={playing === demo.id ? "pause" : "play"} />
                  {playing === demo.id ? t("Pause") : t("Play")}
                  <span className="visually-hidden"> {t(demo.title)}</span>
                </button>
              ) : null}
              <a className="button button-small" href={demo.src} download={`${demo.title}.mp3`}>
                <Icon name="download" />
                {t("Download")}
                <span className="visually-hidden"> {t(demo.title)}</span>
              </a>
            </div>
          </li>
        ))}
      </ul>
    </main>
  );
}
