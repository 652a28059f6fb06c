import { useEffect, useRef, useState } from "react";
import { Form, useFetcher } from "react-router";
import { confirmDelete, submitterOf } from "~/browser/confirm-delete";
import { focusAfterRemoval } from "~/browser/focus";
import { formatDateTime, formatSize } from "~/common/i18n/formats";
import { msg } from "~/common/i18n/translate";
import { useT } from "~/components/ui/i18n";
import { Icon } from "~/components/ui/icon";
import { EmptyState } from "~/components/shell/page-header";
import { toast } from "~/components/shell/toasts";
import { VideoModal } from "~/components/media/video-modal";
import type { clientAction } from "~/routes/videos";

/** The Video Hub player's failure text (docs/screens.md#error-messages). */
const PLAYBACK_FAILED = msg("Playback failed. Please try again.");

/**
 * The Video Hub's "Generated" section (decision 0043): the person's AI video clips, each titled by its
 * prompt, playable in place and in the modal player (Play), downloadable and deletable. Uploads stay in the upload card's list
 * (./video-list.tsx); GET /api/videos stays the list in docs/screens.md of uploaded .mov files.
 *
 * Delete is a plain form posting `intent=delete-generated` to the Video Hub's action (JavaScript off:
 * a redirect with a toast), enhanced with a fetcher (the row goes at once; the toast comes with the
 * answer). "Open in Video Hub" links to `/videos?generated={id}#generated-{id}`: the item is marked
 * and scrolled to, with or without JavaScript. No id is ever printed.
 */
export interface GeneratedVideo {
  id: string;
  /** The prompt it was made from (the file's name when none was kept). */
  title: string;
  /** The file's name, which a download keeps. */
  name: string;
  url: string;
  size: number;
  createdAt: string;
}

export interface GeneratedAnswer {
  intent: "delete-generated";
  id: string;
  ok: boolean;
  message: string;
}

export const GENERATED_INTENT = "delete-generated";
/** the Video hub text in docs/screens.md#error-messages for a delete that failed. */
export const GENERATED_DELETE_FAILED = msg("Failed to delete video.");

/** Where "Open in Video Hub" leads for a generated clip. */
export const generatedVideoHref = (id: string) =>
  `/videos?${new URLSearchParams({ generated: id })}#${generatedAnchor(id)}`;
export const generatedAnchor = (id: string) => `generated-${id}`;

export function GeneratedVideos({ videos, highlighted }: { videos: GeneratedVideo[]; highlighted: string | null }) {
  const { t } = useT();
  // Play opens the clip in the Video Hub's modal player, as an upload's Play does (without JavaScript: the file).
  const [playing, setPlaying] = useState<{ name: string; url: string } | null>(null);
  return (
    <section className="generated-videos" aria-labelledby="generated-videos-title" data-testid="generated-videos">
      <div className="card generated-videos-card">
        <h2 id="generated-videos-title" className="card-title">
          <Icon name="clapperboard" />
          {t("Generated")}
        </h2>
        {videos.length === 0 ? (
          <EmptyState icon="clapperboard" className="media-empty">
            <p>
              <WithLink
                text={t("No generated videos yet. Make one with {{link}}.", { link: LINK })}
                link={<a href="/aivideo">{t("AI Video")}</a>}
              />
            </p>
          </EmptyState>
        ) : (
          <ul className="generated-list" aria-label={t("Generated videos")}>
            {videos.map((video) => (
              <GeneratedItem
                key={video.id}
                video={video}
                highlighted={video.id === highlighted}
                onPlay={() => setPlaying({ name: video.title, url: video.url })}
              />
            ))}
          </ul>
        )}
      </div>
      <VideoModal
        video={playing}
        onClose={() => setPlaying(null)}
        onError={() => {
          setPlaying(null);
          toast.error(t(PLAYBACK_FAILED));
        }}
      />
    </section>
  );
}

/** A whole translated sentence with a link in it: the sentence says where ({{link}}), so each language keeps its word order. */
const LINK = "{{link}}";
function WithLink({ text, link }: { text: string; link: React.ReactNode }) {
  const at = text.indexOf(LINK);
  if (at === -1) return text;
  return (
    <>
      {text.slice(0, at)}
      {link}
      {text.slice(at + LINK.length)}
    </>
  );
}

function GeneratedItem({
  video,
  highlighted,
  onPlay,
}: {
  video: GeneratedVideo;
  highlighted: boolean;
  onPlay: () => void;
}) {
  const { t, language } = useT();
  const fetcher = useFetcher<typeof clientAction>({ key: `generated-delete-${video.id}` });
  const reported = useRef<unknown>(null);
  // A failure says the text in docs/screens.md#error-messages (a success's toast comes with the answer, from the server).
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || reported.current === fetcher.data) return;
    reported.current = fetcher.data;
    if (!fetcher.data.ok) toast.error(t(fetcher.data.message));
  }, [fetcher.state, fetcher.data, t]);

  // While the delete is under way (and after it succeeded) the item is gone from the list.
  if (fetcher.state !== "idle" || fetcher.data?.ok === true) return null;

  const remove = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const row = event.currentTarget.closest("li");
    // docs/screens.md#dialogs: the app's dialog asks first (without JavaScript, the Video Hub's panel).
    if (!(await confirmDelete(submitterOf(event), { message: t("Delete “{{title}}”?", { title: video.title }) })))
      return;
    focusAfterRemoval(row, "button[data-delete-generated]", () =>
      document.querySelector<HTMLElement>("#generated-videos-title"),
    );
    await fetcher.submit(
      { intent: GENERATED_INTENT, id: video.id, enhanced: "1", confirmed: "1" },
      { method: "post", action: "/videos" },
    );
  };

  const titleId = `${generatedAnchor(video.id)}-title`;
  return (
    <li
      id={generatedAnchor(video.id)}
      className={`generated-item${highlighted ? " generated-item-highlighted" : ""}`}
      aria-labelledby={titleId}
      aria-current={highlighted ? "true" : undefined}
      data-testid="generated-item"
    >
      <h3 id={titleId} className="generated-item-title" title={video.title}>
        {video.title}
      </h3>
      <p className="muted generated-item-meta">
        {formatSize(language, video.size)} · {formatDateTime(language, video.createdAt)}
      </p>
      <video
        className="generated-item-video"
        src={video.url}
        controls
        preload="metadata"
        playsInline
        aria-label={t("Preview “{{title}}”", { title: video.title })}
        data-testid="generated-video"
      />
      <div className="media-actions">
        <a
          className="button button-primary button-small"
          href={video.url}
          onClick={(event) => {
            event.preventDefault();
            onPlay();
          }}
          aria-label={t("Play “{{title}}”", { title: video.title })}
          data-play-generated
        >
          <Icon name="play" />
          {t("Play")}
        </a>
        <a
          className="button button-small"
          href={video.url}
          download={video.name}
          aria-label={t("Download “{{title}}”", { title: video.title })}
        >
          <Icon name="download" />
          {t("Download")}
        </a>
        <Form method="post" action="/videos" className="inline-form" onSubmit={(event) => void remove(event)}>
          <input type="hidden" name="intent" value={GENERATED_INTENT} />
          <input type="hidden" name="id" value={video.id} />
          <button
            type="submit"
            className="button button-ghost button-small"
            aria-label={t("Delete “{{title}}”", { title: video.title })}
            data-delete-generated
          >
            <Icon name="trash-2" />
            {t("Delete")}
          </button>
        </Form>
      </div>
    </li>
  );
}
