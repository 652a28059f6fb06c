import { useEffect, useRef, useState } from "react";
import { data, useParams } from "react-router";
import { msg } from "~/common/i18n/translate";
import { useT } from "~/components/ui/i18n";
import { useHydrated } from "~/components/ui/use-hydrated";
import { PageHeader } from "~/components/shell/page-header";
import { requireUser } from "~/auth/auth.server";
import { getMediaByName } from "~/models/media/media.server";
import type { Route } from "./+types/video";

const LOADING_TEXT = msg("Loading video...");
const PLAYBACK_FAILED = msg("Playback failed. Please try again.");

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const file = await getMediaByName(user.id, "video", params.filename);
  if (!file) return data({ name: params.filename, src: null }, { status: 404 });
  // The player streams from the API with the session cookie; byte ranges let it start at once and seek.
  return { name: file.name, src: `/api/videos/${encodeURIComponent(file.name)}` };
}

/** docs/screens.md#video-page: the video for a filename, Back to /videos, "Loading video..." while loading. */
export default function VideoPage({ loaderData }: Route.ComponentProps) {
  const { name, src } = loaderData;
  const { t } = useT();
  const { filename } = useParams();
  const hydrated = useHydrated();
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");

  // The video may have loaded (or failed) before React hydrated and attached its handlers.
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    if (element.error) setState("failed");
    else if (element.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) setState("ready");
  }, [src]);

  return (
    <main className="page media-page video-page">
      <title>{t("{{name}} · Video Hub · Creative AI Studio", { name: filename })}</title>
      <PageHeader
        title={name}
        icon="film"
        back={{ to: "/videos", label: t("Back to Video Hub") }}
        className="video-title"
      />
      {src === null ? (
        <p className="message message-error" role="alert">
          {t("Video not found.")}
        </p>
      ) : (
        <div className="video-stage">
          {/* Without JavaScript nothing would ever hide the loading line, so it shows once hydrated. */}
          {hydrated && state === "loading" ? (
            <p className="video-loading" role="status">
              {t(LOADING_TEXT)}
            </p>
          ) : null}
          {state === "failed" ? (
            <p className="message message-error" role="alert">
              {t(PLAYBACK_FAILED)}
            </p>
          ) : null}
          <video
            ref={video}
            src={src}
            controls
            playsInline
            preload="auto"
            className="video-player"
            data-testid="page-video"
            onLoadedData={() => setState("ready")}
            onError={() => setState("failed")}
          />
        </div>
      )}
    </main>
  );
}
