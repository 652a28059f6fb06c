import { useRef, useState } from "react";
import { Link } from "react-router";
import { apiJson } from "~/browser/api-client";
import { formatDateTime, formatSize } from "~/common/i18n/formats";
import { msg } from "~/common/i18n/translate";
import { VIDEO_FILES, type FileAnswer, type FileScreenData } from "~/common/media/file-screen-kinds";
import { fileDeletePanel, useFileActions } from "./file-actions";
import { FilePage } from "./file-page";
import { Icon } from "~/components/ui/icon";
import { EmptyState } from "~/components/shell/page-header";
import { useT } from "~/components/ui/i18n";
import { VideoModal } from "./video-modal";

/** The Video Hub player's failure text. */
const PLAYBACK_FAILED = msg("Playback failed. Please try again.");
const videoPage = (name: string) => `/videos/${encodeURIComponent(name)}`;

/**
 * The Video Hub's uploads: each links to its page and plays in a dialog (a signed URL); rename and
 * delete. `children` follow the list inside the page's <main> (the Generated section).
 */
export function VideoList({
  data,
  actionData,
  children,
  confirm,
}: {
  data: FileScreenData;
  actionData: FileAnswer | undefined;
  children?: React.ReactNode;
  /** Without JavaScript, a generated clip's delete asks here (else an upload's, from `data`). */
  confirm?: React.ReactNode;
}) {
  const { files } = data;
  const { t, language } = useT();
  const [playing, setPlaying] = useState<{ name: string; url: string } | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const actions = useFileActions(VIDEO_FILES, { renaming: data.renaming, actionData, files, listRef });

  const play = async (event: React.MouseEvent, name: string) => {
    event.preventDefault();
    try {
      const { url } = await apiJson<{ url: string }>(
        `/api/videos/signed_url?${new URLSearchParams({ filename: name })}`,
      );
      setPlaying({ name, url });
    } catch {
      actions.say({ ok: false, message: PLAYBACK_FAILED });
    }
  };

  const after = (
    <>
      {children}
      <VideoModal
        video={playing}
        onClose={() => setPlaying(null)}
        onError={() => {
          setPlaying(null);
          actions.say({ ok: false, message: PLAYBACK_FAILED });
        }}
      />
    </>
  );

  return (
    <FilePage
      kind={VIDEO_FILES}
      maxBytes={data.maxBytes}
      actionData={actionData}
      usage={data.usage}
      outcome={actions.outcome}
      after={after}
      confirm={confirm ?? fileDeletePanel(VIDEO_FILES, data.confirming, t)}
    >
      {files.length === 0 ? (
        <EmptyState icon={VIDEO_FILES.icon} className="media-empty">
          <p>{t(VIDEO_FILES.texts.empty)}</p>
        </EmptyState>
      ) : (
        <ul className="media-list" aria-label={t(VIDEO_FILES.listLabel)} ref={listRef}>
          {files.map((file) => (
            <li key={file.name} className="media-item" data-testid={VIDEO_FILES.testId}>
              <div className="media-item-head">
                {actions.editing === file.name ? (
                  actions.renameForm(file.name)
                ) : (
                  <Link className="media-name" to={videoPage(file.name)}>
                    {file.name}
                  </Link>
                )}
                <span className="muted media-size">
                  {formatSize(language, file.size)} · {formatDateTime(language, file.updatedAt ?? 0)}
                </span>
              </div>
              <div className="media-actions">
                <Link
                  className="button button-primary button-small"
                  to={videoPage(file.name)}
                  onClick={(event) => play(event, file.name)}
                  aria-label={t("Play {{name}}", { name: file.name })}
                >
                  <Icon name="play" />
                  {t("Play")}
                </Link>
                {actions.editing === file.name ? null : actions.renameLink(file.name)}
                {actions.deleteForm(file.name)}
              </div>
            </li>
          ))}
        </ul>
      )}
    </FilePage>
  );
}
