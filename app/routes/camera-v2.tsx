import { useState } from "react";
import { Link } from "react-router";
import { focusAfterRemoval, focusElement } from "~/browser/focus";
import {
  CAMERA_V2_DEFAULT_FILTER,
  CAMERA_V2_FILTERS,
  FILTER_LABELS,
  type CameraV2Filter,
} from "~/browser/camera/camera-filters";
import { CameraStudio } from "~/components/camera/camera-studio";
import { Icon } from "~/components/ui/icon";
import { EmptyState, PageHeader, Skeleton } from "~/components/shell/page-header";
import { RequiresJavaScript } from "~/components/ui/requires-javascript";
import { SaveToLibraryButton } from "~/components/media/save-to-library";
import { useCameraGallery, type GalleryEntry } from "~/components/camera/use-camera-gallery";
import { useFilteredCamera } from "~/components/camera/use-filtered-camera";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useT } from "~/components/ui/i18n";
import { formatDateTime, formatNumber } from "~/common/i18n/formats";
import { requireUser } from "~/auth/auth.server";
import type { Route } from "./+types/camera-v2";

export function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  // The gallery lives in this browser; the user id keeps each person's captures apart.
  return { owner: user.id };
}

/** docs/screens.md#constants-and-limits: Camera V2 works at 1280x720. */
const OUTPUT_SIZE = { width: 1280, height: 720 };

export default function CameraV2({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  const hydrated = useHydrated();
  return (
    <main className="page capture-page capture-page-v2">
      <title>{t("Camera V2.90 · Creative AI Studio")}</title>
      {/* docs/screens.md#screens-and-routes: a sticky header with back and home (inside the app shell since decision 0023). The screen is
          signed-in only, so home is the person's dashboard, not the signed-out landing page. */}
      <PageHeader
        title={t("Camera V2.90")}
        back={{ to: "/camera", label: t("Back to Camera") }}
        className="capture-header-sticky"
      >
        <Link className="button button-ghost" to="/dashboard" aria-label={t("Home")}>
          <Icon name="house" />
          {t("Home")}
        </Link>
      </PageHeader>
      <RequiresJavaScript feature={t("Camera V2")} />
      {hydrated ? <CameraV2Screen owner={loaderData.owner} /> : null}
    </main>
  );
}

function CameraV2Screen({ owner }: { owner: string }) {
  const [filter, setFilter] = useState<CameraV2Filter>(CAMERA_V2_DEFAULT_FILTER);
  const camera = useFilteredCamera({ filter, output: OUTPUT_SIZE });
  const gallery = useCameraGallery(owner);

  return (
    <>
      <CameraStudio
        camera={camera}
        filters={CAMERA_V2_FILTERS}
        filter={filter}
        onFilterChange={setFilter}
        onPhoto={(photo) => void gallery.add("photo", filter, photo)}
        onVideo={(video) => void gallery.add("video", filter, video.blob)}
        placeholderSize={OUTPUT_SIZE}
      />
      <CameraGallery gallery={gallery} />
    </>
  );
}

function CameraGallery({ gallery }: { gallery: ReturnType<typeof useCameraGallery> }) {
  const { t, language } = useT();
  const { entries, loading, problem } = gallery;
  return (
    <section className="camera-gallery" aria-labelledby="camera-gallery-heading">
      <div className="camera-gallery-header">
        <h2 id="camera-gallery-heading">
          {t("Gallery")} <span className="muted">({formatNumber(language, entries.length)})</span>
        </h2>
        <button
          type="button"
          className="button button-ghost"
          onClick={() => {
            // The button is disabled once the gallery is empty: the heading takes the focus.
            focusElement(document.getElementById("camera-gallery-heading"));
            void gallery.clear();
          }}
          disabled={entries.length === 0}
        >
          {t("Clear All")}
        </button>
      </div>
      {problem ? (
        <p className="message message-error" role="alert">
          {t(problem)}
        </p>
      ) : null}
      {loading ? (
        <Skeleton label={t("Loading your captures…")} lines={1} />
      ) : entries.length === 0 ? (
        <EmptyState icon="camera">
          <p>{t("No captures yet. Tap the capture button for a photo, hold it for a video.")}</p>
        </EmptyState>
      ) : (
        <ul className="camera-gallery-grid" aria-label={t("Captures")}>
          {entries.map((entry) => (
            <GalleryCard
              key={entry.id}
              entry={entry}
              onDelete={(item) => {
                focusAfterRemoval(item, "button[data-delete]", () => document.getElementById("camera-gallery-heading"));
                void gallery.remove(entry.id);
              }}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function GalleryCard({ entry, onDelete }: { entry: GalleryEntry; onDelete: (item: Element | null) => void }) {
  const { t, language } = useT();
  const filter = t(FILTER_LABELS[entry.filter]);
  const time = formatDateTime(language, entry.id, "dateTimeSeconds");
  const description =
    entry.type === "photo"
      ? t("Photo, {{filter}} filter, {{time}}", { filter, time })
      : t("Video, {{filter}} filter, {{time}}", { filter, time });
  // The library takes photos as PNG and clips as WebM (a browser that records MP4 keeps the download only).
  const libraryKind = entry.filename.endsWith(".png") ? "photo" : entry.filename.endsWith(".webm") ? "clip" : null;
  return (
    <li className="camera-gallery-item" data-testid="gallery-item" data-type={entry.type} data-filter={entry.filter}>
      {entry.type === "photo" ? (
        <img src={entry.src} alt={description} />
      ) : (
        <video src={entry.src} controls playsInline preload="metadata" aria-label={description} />
      )}
      <p className="muted camera-gallery-caption">
        <Icon name={entry.type === "photo" ? "camera" : "clapperboard"} /> {filter} · {formatClock(language, entry.id)}
      </p>
      <div className="camera-gallery-actions">
        <a
          className="button button-small"
          href={entry.src}
          download={entry.filename}
          aria-label={t("Save {{capture}}", { capture: description })}
        >
          <Icon name="download" />
          {t("Save")}
        </a>
        <button
          type="button"
          className="button button-ghost button-small"
          onClick={(event) => onDelete(event.currentTarget.closest("li"))}
          aria-label={t("Delete {{capture}}", { capture: description })}
          data-delete
        >
          <Icon name="trash-2" />
          {t("Delete")}
        </button>
        {libraryKind ? (
          <SaveToLibraryButton
            source={entry.blob}
            filename={entry.filename}
            kind={libraryKind}
            label={t("Save to library")}
          />
        ) : null}
      </div>
    </li>
  );
}

/**
 * A capture's time of day with its seconds (captures come seconds apart), in the screen's language and
 * in UTC as every time the studio shows (app/common/i18n/formats.ts): the same on the server and in the browser.
 */
const clocks = new Map<string, Intl.DateTimeFormat>();
function formatClock(language: string, when: number): string {
  let clock = clocks.get(language);
  if (!clock) {
    clock = new Intl.DateTimeFormat(language === "en-XA" ? "en" : language, { timeStyle: "medium", timeZone: "UTC" });
    clocks.set(language, clock);
  }
  return `${clock.format(new Date(when))} UTC`;
}
