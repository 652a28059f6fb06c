import type { SharedFileView } from "~/common/sharing/shared-page-view";
import { useT } from "~/components/ui/i18n";

/**
 * A shared file as the page shows it: the picture, a player (its seeking asks the file link for byte
 * ranges), or for any other kind of file its name and type; then its Download.
 */
export function SharedMedia({ file }: { file: SharedFileView }) {
  const { t } = useT();
  return (
    <div className="shared-media">
      <MediaElement file={file} />
      <p className="shared-download">
        <a className="button button-primary" href={file.downloadHref} download={file.name}>
          {t("Download")}
          <span className="visually-hidden"> {file.name}</span>
        </a>
      </p>
    </div>
  );
}

function MediaElement({ file }: { file: SharedFileView }) {
  switch (file.type) {
    case "image":
      return (
        <img
          className="shared-image"
          src={file.src}
          alt={file.name}
          width={file.width ?? undefined}
          height={file.height ?? undefined}
        />
      );
    case "video":
      return (
        // The studio keeps no captions for its videos; the file's name labels the player.
        <video
          className="shared-player"
          src={file.src}
          controls
          playsInline
          preload="metadata"
          aria-label={file.name}
        />
      );
    case "audio":
      return <audio className="shared-player" src={file.src} controls preload="metadata" aria-label={file.name} />;
    default:
      return (
        <p className="shared-other">
          <span className="shared-file-name">{file.name}</span> <span className="muted">({file.contentType})</span>
        </p>
      );
  }
}
