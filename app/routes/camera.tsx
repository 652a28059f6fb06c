import { useState } from "react";
import { Link } from "react-router";
import { CAMERA_DEFAULT_FILTER, CAMERA_FILTERS, type CameraFilter } from "~/browser/camera/camera-filters";
import { captureFilename, downloadBlob } from "~/browser/download";
import { CameraStudio } from "~/components/camera/camera-studio";
import { PageHeader } from "~/components/shell/page-header";
import { RequiresJavaScript } from "~/components/ui/requires-javascript";
import { SaveToLibraryButton, savableAs } from "~/components/media/save-to-library";
import { useFilteredCamera } from "~/components/camera/use-filtered-camera";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useT } from "~/components/ui/i18n";
import { requireUser } from "~/auth/auth.server";
import type { Route } from "./+types/camera";

export function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, request);
  return null;
}

/** The camera's own size (the fake and most webcams give 640x480 unless asked for more). */
const PLACEHOLDER_SIZE = { width: 640, height: 480 };

export default function Camera() {
  const { t } = useT();
  const hydrated = useHydrated();
  return (
    <main className="page capture-page">
      <title>{t("Camera · Creative AI Studio")}</title>
      <PageHeader title={t("Camera")} icon="camera">
        <Link className="button" to="/camera-v2">
          {t("Try Camera V2 →")}
        </Link>
      </PageHeader>
      <RequiresJavaScript feature={t("The camera")} />
      {hydrated ? <CameraScreen /> : null}
    </main>
  );
}

/** docs/screens.md#camera: live filtered preview; photos (PNG) and videos (WebM) download straight away. */
function CameraScreen() {
  const { t } = useT();
  const [filter, setFilter] = useState<CameraFilter>(CAMERA_DEFAULT_FILTER);
  const camera = useFilteredCamera({ filter, output: null });
  const [saved, setSaved] = useState<string | null>(null);
  // The last capture, for "Save to library" (the download in docs/screens.md happens first, as before).
  const [last, setLast] = useState<{ blob: Blob; filename: string; kind: "photo" | "clip" } | null>(null);

  const save = (blob: Blob, kind: "photo" | "video", extension: string) => {
    const filename = captureFilename(`camera-${filter}`, new Date(), extension);
    downloadBlob(blob, filename);
    setLast({ blob, filename, kind: kind === "photo" ? "photo" : "clip" });
    setSaved(
      kind === "photo"
        ? t("Photo downloaded: {{filename}}", { filename })
        : t("Video downloaded: {{filename}}", { filename }),
    );
  };

  return (
    <CameraStudio
      camera={camera}
      filters={CAMERA_FILTERS}
      filter={filter}
      onFilterChange={setFilter}
      onPhoto={(photo) => save(photo, "photo", "png")}
      onVideo={(video) => save(video.blob, "video", video.format.extension)}
      placeholderSize={PLACEHOLDER_SIZE}
    >
      {saved ? (
        <p className="message message-success capture-saved" role="status">
          {saved}
        </p>
      ) : null}
      {last && savableAs(last.kind, last.blob.type) ? (
        <SaveToLibraryButton key={last.filename} source={last.blob} filename={last.filename} kind={last.kind} />
      ) : null}
    </CameraStudio>
  );
}
