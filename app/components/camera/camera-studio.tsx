import { FILTER_LABELS, type CameraFilter } from "~/browser/camera/camera-filters";
import type { Resolution } from "~/browser/camera/media-capture";
import { CaptureButton } from "./capture-button";
import { Icon } from "~/components/ui/icon";
import { FilterSelect } from "~/components/ui/filter-select";
import { msg } from "~/common/i18n/translate";
import { useT } from "~/components/ui/i18n";
import type { FilteredCamera, RecordedVideo } from "./use-filtered-camera";

export const ONE_CAMERA_TEXT = msg("Only one camera was found, so there is no other side to flip to.");

interface CameraStudioProps<F extends CameraFilter> {
  camera: FilteredCamera;
  filters: readonly F[];
  filter: F;
  onFilterChange: (filter: F) => void;
  onPhoto: (photo: Blob) => void;
  onVideo: (video: RecordedVideo) => void;
  /** The canvas size before the first frame (so the layout does not jump). */
  placeholderSize: Resolution;
  children?: React.ReactNode;
}

/**
 * The live filtered preview with its controls (filter, Flip Camera, capture), shared by both
 * camera screens. What the canvas shows is what photos and videos contain.
 */
export function CameraStudio<F extends CameraFilter>({
  camera,
  filters,
  filter,
  onFilterChange,
  onPhoto,
  onVideo,
  placeholderSize,
  children,
}: CameraStudioProps<F>) {
  const { t } = useT();
  const { status, recording } = camera;
  const unavailable = status !== "starting" && status !== "ready";
  const singleCamera = status === "ready" && camera.cameraCount < 2;

  return (
    <section className="camera-studio" aria-label={t("Camera")}>
      <div className="camera-stage" data-status={status} data-filter={filter}>
        <canvas
          ref={camera.canvasRef}
          className="camera-canvas"
          width={placeholderSize.width}
          height={placeholderSize.height}
          role="img"
          aria-label={t("Live camera preview, {{filter}} filter", { filter: t(FILTER_LABELS[filter]) })}
        />
        {/* The camera's raw frames: drawn onto the canvas through the filter, never shown themselves. */}
        <video
          ref={camera.videoRef}
          className="camera-source"
          muted
          playsInline
          autoPlay
          aria-hidden="true"
          tabIndex={-1}
        />
        {status === "starting" ? <p className="camera-stage-note">{t("Starting camera…")}</p> : null}
        {recording ? (
          <p className="camera-rec" role="status">
            <span className="camera-rec-dot" aria-hidden="true" />{" "}
            {t("REC {{elapsed}}", { elapsed: camera.recordingElapsed ?? "" })}
          </p>
        ) : null}
      </div>

      {camera.message ? (
        <div className="camera-problem">
          <p className="message message-error" role="alert">
            {t(camera.message)}
          </p>
          {unavailable ? (
            <button type="button" className="button" onClick={camera.retry}>
              {t("Try again")}
            </button>
          ) : null}
        </div>
      ) : null}

      <div className="camera-controls">
        <FilterSelect filters={filters} value={filter} onChange={onFilterChange} />
        <div className="camera-flip">
          <button
            type="button"
            className="button"
            onClick={camera.flip}
            disabled={status !== "ready" || singleCamera || recording}
            aria-describedby={singleCamera ? "camera-flip-note" : undefined}
          >
            <Icon name="switch-camera" />
            {t("Flip Camera")}
          </button>
          {singleCamera ? (
            <span className="muted camera-flip-note" id="camera-flip-note">
              {t(ONE_CAMERA_TEXT)}
            </span>
          ) : null}
        </div>
        <CaptureButton
          disabled={status !== "ready"}
          waitingLabel={status === "starting" ? t("Starting camera…") : undefined}
          recording={recording}
          elapsed={camera.recordingElapsed}
          onPhoto={() => {
            void camera.takePhoto().then((photo) => photo && onPhoto(photo));
          }}
          onVideoStart={camera.startVideo}
          onVideoStop={() => {
            void camera.stopVideo().then((video) => video && onVideo(video));
          }}
        />
        {children}
      </div>
    </section>
  );
}
