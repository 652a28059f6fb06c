import { useEffect, useRef } from "react";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";

interface VideoModalProps {
  /** The video being played, or null when the modal is closed. */
  video: { name: string; url: string } | null;
  onClose: () => void;
  onError: () => void;
}

/** The Video hub's modal player (docs/screens.md#screens-and-routes): a native <dialog>, so focus, Escape and the backdrop behave. */
export function VideoModal({ video, onClose, onError }: VideoModalProps) {
  const { t } = useT();
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (video && !element.open) element.showModal();
    if (!video && element.open) element.close();
  }, [video]);

  return (
    <dialog
      ref={dialog}
      className="video-modal"
      aria-label={video ? t("Playing {{name}}", { name: video.name }) : t("Video player")}
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop (the dialog itself, outside its content) closes it.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      {video ? (
        <div className="video-modal-body">
          <div className="video-modal-head">
            <h2>{video.name}</h2>
            <button
              type="button"
              className="button button-ghost button-small"
              onClick={onClose}
              aria-label={t("Close player")}
            >
              <Icon name="x" />
              {t("Close")}
            </button>
          </div>
          <video
            key={video.url}
            src={video.url}
            controls
            autoPlay
            playsInline
            className="video-player"
            data-testid="modal-video"
            onError={onError}
          />
        </div>
      ) : null}
    </dialog>
  );
}
