import { useEffect, useRef, useState } from "react";
import { formatNumber, formatSize } from "~/common/i18n/formats";
import { VOICE_FILES, type FileAnswer, type FileScreenData } from "~/common/media/file-screen-kinds";
import { fileDeletePanel, useFileActions } from "./file-actions";
import { FilePage } from "./file-page";
import { Icon } from "~/components/ui/icon";
import { EmptyState } from "~/components/shell/page-header";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useT } from "~/components/ui/i18n";

const SPEEDS = [0.5, 1, 1.5, 2] as const;
const voiceUrl = (name: string) => `/static/voices/${encodeURIComponent(name)}`;

/** The Voices screen: the person's MP3 clips, each with a player; speed, loop and restart apply to all. */
export function VoiceList({ data, actionData }: { data: FileScreenData; actionData: FileAnswer | undefined }) {
  const { files } = data;
  const { t, language } = useT();
  const hydrated = useHydrated();
  const [speed, setSpeed] = useState<number>(1);
  const [loop, setLoop] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  const lastPlayed = useRef<HTMLAudioElement | null>(null);
  const actions = useFileActions(VOICE_FILES, { renaming: data.renaming, actionData, files, listRef });

  // Speed and loop apply to every player, including ones that appear after an upload.
  useEffect(() => {
    listRef.current?.querySelectorAll("audio").forEach((audio) => {
      audio.playbackRate = speed;
      audio.defaultPlaybackRate = speed;
      audio.loop = loop;
    });
  }, [speed, loop, files]);

  const restart = () => {
    const audio = lastPlayed.current ?? listRef.current?.querySelector("audio");
    if (!audio) return;
    audio.currentTime = 0;
    void audio.play().catch(() => {});
  };

  return (
    <FilePage
      kind={VOICE_FILES}
      maxBytes={data.maxBytes}
      actionData={actionData}
      usage={data.usage}
      outcome={actions.outcome}
      confirm={fileDeletePanel(VOICE_FILES, data.confirming, t)}
    >
      <section className="media-controls" aria-label={t("Playback")}>
        <label className="media-speed">
          {t("Playback speed")}
          <select value={speed} onChange={(event) => setSpeed(Number(event.target.value))} disabled={!hydrated}>
            {SPEEDS.map((value) => (
              <option key={value} value={value}>
                {t("{{speed}}x", { speed: formatNumber(language, value) })}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button"
          aria-pressed={loop}
          onClick={() => setLoop(!loop)}
          disabled={!hydrated}
        >
          <Icon name="repeat" />
          {loop ? t("Loop: on") : t("Loop: off")}
        </button>
        <button type="button" className="button" onClick={restart} disabled={!hydrated || files.length === 0}>
          <Icon name="rotate-ccw" />
          {t("Restart")}
        </button>
      </section>

      {files.length === 0 ? (
        <EmptyState icon={VOICE_FILES.icon} className="media-empty">
          <p>{t(VOICE_FILES.texts.empty)}</p>
        </EmptyState>
      ) : (
        <ul className="media-list" aria-label={t(VOICE_FILES.listLabel)} ref={listRef}>
          {files.map((file) => (
            <li key={file.name} className="media-item" data-testid={VOICE_FILES.testId}>
              <div className="media-item-head">
                <span className="media-name">{file.name}</span>
                <span className="muted media-size">{formatSize(language, file.size)}</span>
              </div>
              <audio
                controls
                preload="metadata"
                src={voiceUrl(file.name)}
                aria-label={t("Play {{name}}", { name: file.name })}
                onPlay={(event) => {
                  lastPlayed.current = event.currentTarget;
                  event.currentTarget.playbackRate = speed;
                }}
              />
              <div className="media-actions">
                {actions.editing === file.name ? actions.renameForm(file.name) : actions.renameLink(file.name)}
                {actions.deleteForm(file.name)}
              </div>
            </li>
          ))}
        </ul>
      )}
    </FilePage>
  );
}
