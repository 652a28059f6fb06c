import { useRef, useState } from "react";
import { data, Link, redirect, useRevalidator } from "react-router";
import { apiFetch, apiJson, errorDetail } from "~/browser/api-client";
import { UploadNetworkError, uploadWithProgress } from "~/browser/upload";
import { FlashMessage, MediaHeader, OutcomeMessage, UploadProgress, formatSize, type Outcome } from "~/components/media-ui";
import { toast } from "~/components/toasts";
import { VideoModal } from "~/components/video-modal";
import { requireUser } from "~/auth/auth.server";
import { formatBytes, isMultipart, missingFileMessage } from "~/lib/upload.server";
import { readFormData } from "~/lib/http.server";
import { deleteMedia, listMedia, MEDIA_RULES, MediaError, receiveMediaUpload, renameMedia } from "~/models/media.server";
import type { Route } from "./+types/videos";

export const meta: Route.MetaFunction = () => [{ title: "Video Hub · Creative AI Studio" }];

/** SPEC §2, §5 and §8 texts of the Video hub. */
const EMPTY_TEXT = "No videos uploaded yet.";
const SELECT_FIRST = "Please select a video first.";
const UPLOAD_FAILED = "Failed to upload video.";
const DELETE_FAILED = "Failed to delete video.";
const RENAME_FAILED = "Rename failed.";
const PLAYBACK_FAILED = "Playback failed. Please try again.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const files = await listMedia(user.id, "video");
  return {
    videos: files.map((file) => ({ name: file.name, size: file.size, updatedAt: file.updatedAt })),
    maxBytes: MEDIA_RULES.video.maxBytes,
    maxLabel: formatBytes(MEDIA_RULES.video.maxBytes),
    // Without JavaScript, "Rename" is a link to ?rename={name}: that row shows its form.
    renaming: new URL(request.url).searchParams.get("rename"),
  };
}

type ActionFailure = { intent: "upload" | "rename" | "delete" | null; name?: string } & Outcome;
const failure = (result: ActionFailure, status: number) => data(result, { status });
const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : "");

/**
 * Plain-form posts (JavaScript off; with it the screen calls the API): a multipart upload streams
 * through the same code as POST /api/videos/upload; rename (a blank name is ignored) and delete.
 * SPEC has no success texts for videos: success redirects back and the list shows the change.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  if (isMultipart(request)) {
    try {
      await receiveMediaUpload(user.id, "video", request);
    } catch (error) {
      if (!(error instanceof MediaError)) throw error;
      if (error.message === missingFileMessage()) return failure({ intent: "upload", ok: false, message: SELECT_FIRST }, 422);
      return failure({ intent: "upload", ok: false, message: UPLOAD_FAILED, detail: error.message }, error.status);
    }
    return redirect("/videos");
  }

  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return failure({ intent: null, ok: false, message: "Invalid form" }, 400);
  }
  const intent = form.get("intent");
  const name = text(form.get("name"));
  if (intent === "rename") {
    const newName = text(form.get("new_name"));
    // SPEC §5: a blank name is ignored.
    if (!newName.trim()) return redirect("/videos");
    try {
      await renameMedia(user.id, "video", name, newName);
    } catch (error) {
      if (!(error instanceof MediaError)) throw error;
      return failure({ intent, name, ok: false, message: RENAME_FAILED, detail: error.message }, error.status);
    }
    return redirect("/videos");
  }
  if (intent === "delete") {
    if (!(await deleteMedia(user.id, "video", name))) return failure({ intent, name, ok: false, message: DELETE_FAILED }, 404);
    return redirect("/videos");
  }
  return failure({ intent: null, ok: false, message: "Unknown action" }, 400);
}

const videoPage = (name: string) => `/videos/${encodeURIComponent(name)}`;

export default function Videos({ loaderData, actionData }: Route.ComponentProps) {
  const { videos, maxBytes, maxLabel } = loaderData;
  const revalidator = useRevalidator();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [editing, setEditing] = useState<string | null>(loaderData.renaming);
  const [busy, setBusy] = useState<string | null>(null);
  const [playing, setPlaying] = useState<{ name: string; url: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const fail = (message: string, detail?: string | null) => {
    setOutcome({ ok: false, message, detail });
    toast.error(message);
  };

  const upload = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    if (!file) {
      setOutcome({ ok: false, message: SELECT_FIRST });
      toast.warning(SELECT_FIRST);
      return;
    }
    if (file.size > maxBytes) return fail(UPLOAD_FAILED, `File is too large (the limit is ${maxLabel})`);
    const form = new FormData();
    form.append("file", file);
    setOutcome(null);
    setProgress(0);
    try {
      const result = await uploadWithProgress<{ filename: string }>("/api/videos/upload", form, { onProgress: setProgress });
      if (!result.ok) return fail(UPLOAD_FAILED, result.detail);
      if (fileInput.current) fileInput.current.value = "";
      revalidator.revalidate();
    } catch (error) {
      if (!(error instanceof UploadNetworkError)) console.error(error);
      fail(UPLOAD_FAILED);
    } finally {
      setProgress(null);
    }
  };

  const play = async (event: React.MouseEvent, name: string) => {
    event.preventDefault();
    try {
      const { url } = await apiJson<{ url: string }>(`/api/videos/signed_url?${new URLSearchParams({ filename: name })}`);
      setPlaying({ name, url });
    } catch {
      fail(PLAYBACK_FAILED);
    }
  };

  const rename = async (event: React.FormEvent<HTMLFormElement>, name: string) => {
    event.preventDefault();
    const newName = String(new FormData(event.currentTarget).get("new_name") ?? "").trim();
    // SPEC §5: a blank name is ignored.
    if (!newName) return setEditing(null);
    setBusy(name);
    try {
      const response = await apiFetch("/api/videos/rename", {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ old_name: name, new_name: newName }),
      });
      if (!response.ok) return fail(RENAME_FAILED, await errorDetail(response));
      setOutcome(null);
      setEditing(null);
      revalidator.revalidate();
    } catch {
      fail(RENAME_FAILED);
    } finally {
      setBusy(null);
    }
  };

  const remove = async (event: React.FormEvent<HTMLFormElement>, name: string) => {
    event.preventDefault();
    setBusy(name);
    try {
      const response = await apiFetch(`/api/videos/${encodeURIComponent(name)}`, { method: "DELETE" });
      if (!response.ok) return fail(DELETE_FAILED, await errorDetail(response));
      setOutcome(null);
      revalidator.revalidate();
    } catch {
      fail(DELETE_FAILED);
    } finally {
      setBusy(null);
    }
  };

  return (
    <main className="page media-page">
      <MediaHeader title="📼 Video Hub" />

      <section className="card media-upload" aria-label="Upload a video">
        <form method="post" encType="multipart/form-data" className="media-upload-form" onSubmit={upload}>
          <input type="hidden" name="intent" value="upload" />
          <label>
            Choose a video
            <input ref={fileInput} type="file" name="file" accept="video/*" />
          </label>
          <button type="submit" className="button button-primary" disabled={progress !== null}>
            {progress !== null ? "Uploading..." : "Upload"}
          </button>
        </form>
        <p className="muted media-hint">Any video format, up to {maxLabel}.</p>
        <UploadProgress percent={progress} />
      </section>

      <FlashMessage />
      <OutcomeMessage outcome={outcome ?? actionData} />

      {videos.length === 0 ? (
        <p className="muted media-empty">{EMPTY_TEXT}</p>
      ) : (
        <ul className="media-list" aria-label="Videos">
          {videos.map((video) => (
            <li key={video.name} className="media-item" data-testid="video-item">
              <div className="media-item-head">
                {editing === video.name ? (
                  <form method="post" className="media-rename" onSubmit={(event) => rename(event, video.name)}>
                    <input type="hidden" name="intent" value="rename" />
                    <input type="hidden" name="name" value={video.name} />
                    <input
                      name="new_name"
                      defaultValue={video.name}
                      aria-label={`New name for ${video.name}`}
                      maxLength={120}
                      autoFocus
                      onKeyDown={(event) => event.key === "Escape" && setEditing(null)}
                    />
                    <button type="submit" className="button button-primary button-small" disabled={busy === video.name}>
                      Save
                    </button>
                  </form>
                ) : (
                  <Link className="media-name" to={videoPage(video.name)}>
                    {video.name}
                  </Link>
                )}
                <span className="muted media-size">
                  {formatSize(video.size)} · {new Date(video.updatedAt).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC
                </span>
              </div>
              <div className="media-actions">
                <Link className="button button-primary button-small" to={videoPage(video.name)} onClick={(event) => play(event, video.name)} aria-label={`Play ${video.name}`}>
                  ▶ Play
                </Link>
                {editing === video.name ? null : (
                  <Link
                    className="button button-small"
                    to={`/videos?${new URLSearchParams({ rename: video.name })}`}
                    aria-label={`Rename ${video.name}`}
                    onClick={(event) => {
                      event.preventDefault();
                      setEditing(video.name);
                    }}
                  >
                    Rename
                  </Link>
                )}
                <form method="post" className="inline-form" onSubmit={(event) => remove(event, video.name)}>
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="name" value={video.name} />
                  <button type="submit" className="button button-ghost button-small" aria-label={`Delete ${video.name}`} disabled={busy === video.name}>
                    Delete
                  </button>
                </form>
              </div>
            </li>
          ))}
        </ul>
      )}

      <VideoModal
        video={playing}
        onClose={() => setPlaying(null)}
        onError={() => {
          setPlaying(null);
          fail(PLAYBACK_FAILED);
        }}
      />
    </main>
  );
}
