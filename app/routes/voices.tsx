import { useEffect, useRef, useState } from "react";
import { data, Link, useRevalidator } from "react-router";
import { apiFetch, errorDetail } from "~/browser/api-client";
import { UploadNetworkError, uploadWithProgress } from "~/browser/upload";
import { FlashMessage, MediaHeader, OutcomeMessage, UploadProgress, formatSize, type Outcome } from "~/components/media-ui";
import { toast } from "~/components/toasts";
import { useHydrated } from "~/components/use-hydrated";
import { requireUser } from "~/auth/auth.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { isMultipart, formatBytes } from "~/lib/upload.server";
import { readFormData } from "~/lib/http.server";
import { deleteMedia, listMedia, MEDIA_RULES, MediaError, receiveMediaUpload, renameMedia } from "~/models/media.server";
import { hasExtension } from "~/shared/media-names";
import type { Route } from "./+types/voices";

export const meta: Route.MetaFunction = () => [{ title: "Voices · Creative AI Studio" }];

/** SPEC §2, §5, §8 and §9 texts and constants of the Voices screen. */
const EMPTY_TEXT = "No voices yet. Upload an MP3!";
const ONLY_MP3 = "Only MP3 files allowed";
const UPLOAD_OK = "✅ Upload successful!";
const UPLOAD_FAILED = "❌ Upload failed";
const UPLOAD_ERROR = "❌ Upload error";
const UPLOAD_FAILED_PLAIN = "Upload failed";
const DELETED = "🗑️ File deleted";
const DELETE_FAILED = "Delete failed";
const RENAMED = "✨ Renamed successfully";
const RENAME_FAILED = "Rename failed";
const NAME_REQUIRED = "Enter a name before saving";
const VOICE_TOAST_MS = 3000;
const SPEEDS = [0.5, 1, 1.5, 2] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const files = await listMedia(user.id, "voice");
  return {
    files: files.map((file) => ({ name: file.name, size: file.size })),
    maxBytes: MEDIA_RULES.voice.maxBytes,
    maxLabel: formatBytes(MEDIA_RULES.voice.maxBytes),
    // Without JavaScript, "Rename" is a link to ?rename={name}: that row shows its form.
    renaming: new URL(request.url).searchParams.get("rename"),
  };
}

type ActionFailure = { intent: "upload" | "rename" | "delete" | null; name?: string } & Outcome;
const failure = (result: ActionFailure, status: number) => data(result, { status });
const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : "");

/**
 * Plain-form posts (JavaScript off; with it the screen calls the API): a multipart upload streams
 * through the same code as POST /api/voice/upload; rename and delete. Success redirects back with a
 * flash message; a failure re-renders the screen with the reason.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  if (isMultipart(request)) {
    try {
      await receiveMediaUpload(user.id, "voice", request);
    } catch (error) {
      if (!(error instanceof MediaError)) throw error;
      return failure({ intent: "upload", ok: false, message: UPLOAD_FAILED_PLAIN, detail: error.message }, error.status);
    }
    return redirectWithSuccess("/voices", UPLOAD_OK);
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
    if (!newName.trim()) return failure({ intent, name, ok: false, message: NAME_REQUIRED }, 400);
    try {
      await renameMedia(user.id, "voice", name, newName);
    } catch (error) {
      if (!(error instanceof MediaError)) throw error;
      return failure({ intent, name, ok: false, message: RENAME_FAILED, detail: error.message }, error.status);
    }
    return redirectWithSuccess("/voices", RENAMED);
  }
  if (intent === "delete") {
    if (!(await deleteMedia(user.id, "voice", name))) return failure({ intent, name, ok: false, message: DELETE_FAILED }, 404);
    return redirectWithSuccess("/voices", DELETED);
  }
  return failure({ intent: null, ok: false, message: "Unknown action" }, 400);
}

const voiceUrl = (name: string) => `/static/voices/${encodeURIComponent(name)}`;

export default function Voices({ loaderData, actionData }: Route.ComponentProps) {
  const { files, maxBytes, maxLabel } = loaderData;
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [editing, setEditing] = useState<string | null>(loaderData.renaming);
  const [busy, setBusy] = useState<string | null>(null);
  const [speed, setSpeed] = useState<number>(1);
  const [loop, setLoop] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  const lastPlayed = useRef<HTMLAudioElement | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  // Speed and loop apply to every player, including ones that appear after an upload.
  useEffect(() => {
    listRef.current?.querySelectorAll("audio").forEach((audio) => {
      audio.playbackRate = speed;
      audio.defaultPlaybackRate = speed;
      audio.loop = loop;
    });
  }, [speed, loop, files]);

  const say = (result: Outcome, kind: "success" | "error" | "warning") => {
    setOutcome(result.ok && !result.detail ? null : result);
    toast[kind](result.message, { autoClose: VOICE_TOAST_MS });
  };

  const upload = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    if (!file) return;
    // SPEC §5: only names ending in .mp3 (the server also checks the content).
    if (!hasExtension(file.name, "voice")) return say({ ok: false, message: ONLY_MP3 }, "error");
    if (file.size > maxBytes) {
      return say({ ok: false, message: UPLOAD_FAILED, detail: `File is too large (the limit is ${maxLabel})` }, "error");
    }
    const form = new FormData();
    form.append("file", file);
    setOutcome(null);
    setProgress(0);
    try {
      const result = await uploadWithProgress<{ filename: string }>("/api/voice/upload", form, { onProgress: setProgress });
      if (result.ok) {
        say({ ok: true, message: UPLOAD_OK }, "success");
        if (fileInput.current) fileInput.current.value = "";
        revalidator.revalidate();
      } else {
        say({ ok: false, message: UPLOAD_FAILED, detail: result.detail }, "error");
      }
    } catch (error) {
      if (!(error instanceof UploadNetworkError)) console.error(error);
      say({ ok: false, message: UPLOAD_ERROR }, "error");
    } finally {
      setProgress(null);
    }
  };

  const rename = async (event: React.FormEvent<HTMLFormElement>, name: string) => {
    event.preventDefault();
    const newName = String(new FormData(event.currentTarget).get("new_name") ?? "").trim();
    if (!newName) return say({ ok: false, message: NAME_REQUIRED }, "warning");
    setBusy(name);
    try {
      const response = await apiFetch(`/api/voice/rename?${new URLSearchParams({ old_name: name, new_name: newName })}`, { method: "PUT" });
      if (!response.ok) return say({ ok: false, message: RENAME_FAILED, detail: await errorDetail(response) }, "error");
      say({ ok: true, message: RENAMED }, "success");
      setEditing(null);
      revalidator.revalidate();
    } catch {
      say({ ok: false, message: RENAME_FAILED }, "error");
    } finally {
      setBusy(null);
    }
  };

  const remove = async (event: React.FormEvent<HTMLFormElement>, name: string) => {
    event.preventDefault();
    setBusy(name);
    try {
      const response = await apiFetch(`/api/voice/file/${encodeURIComponent(name)}`, { method: "DELETE" });
      if (!response.ok) return say({ ok: false, message: DELETE_FAILED, detail: await errorDetail(response) }, "error");
      say({ ok: true, message: DELETED }, "success");
      revalidator.revalidate();
    } catch {
      say({ ok: false, message: DELETE_FAILED }, "error");
    } finally {
      setBusy(null);
    }
  };

  const restart = () => {
    const audio = lastPlayed.current ?? listRef.current?.querySelector("audio");
    if (!audio) return;
    audio.currentTime = 0;
    void audio.play().catch(() => {});
  };

  const shown = outcome ?? actionData;
  return (
    <main className="page media-page">
      <MediaHeader title="🎙️ Voices" />

      <section className="card media-upload" aria-label="Upload a voice clip">
        <form method="post" encType="multipart/form-data" className="media-upload-form" onSubmit={upload}>
          <input type="hidden" name="intent" value="upload" />
          <label>
            Upload MP3
            <input ref={fileInput} type="file" name="file" accept=".mp3,audio/mpeg" required />
          </label>
          <button type="submit" className="button button-primary" disabled={progress !== null}>
            {progress !== null ? "Uploading..." : "Upload"}
          </button>
        </form>
        <p className="muted media-hint">MP3 only, up to {maxLabel}.</p>
        <UploadProgress percent={progress} />
      </section>

      <FlashMessage />
      <OutcomeMessage outcome={shown} />

      <section className="media-controls" aria-label="Playback">
        <label className="media-speed">
          Playback speed
          <select value={speed} onChange={(event) => setSpeed(Number(event.target.value))} disabled={!hydrated}>
            {SPEEDS.map((value) => (
              <option key={value} value={value}>
                {value}x
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button" aria-pressed={loop} onClick={() => setLoop(!loop)} disabled={!hydrated}>
          🔁 Loop: {loop ? "on" : "off"}
        </button>
        <button type="button" className="button" onClick={restart} disabled={!hydrated || files.length === 0}>
          ⏮ Restart
        </button>
      </section>

      {files.length === 0 ? (
        <p className="muted media-empty">{EMPTY_TEXT}</p>
      ) : (
        <ul className="media-list" aria-label="Voice files" ref={listRef}>
          {files.map((file) => (
            <li key={file.name} className="media-item" data-testid="voice-item">
              <div className="media-item-head">
                <span className="media-name">{file.name}</span>
                <span className="muted media-size">{formatSize(file.size)}</span>
              </div>
              <audio
                controls
                preload="metadata"
                src={voiceUrl(file.name)}
                aria-label={`Play ${file.name}`}
                onPlay={(event) => {
                  lastPlayed.current = event.currentTarget;
                  event.currentTarget.playbackRate = speed;
                }}
              />
              <div className="media-actions">
                {editing === file.name ? (
                  <form method="post" className="media-rename" onSubmit={(event) => rename(event, file.name)}>
                    <input type="hidden" name="intent" value="rename" />
                    <input type="hidden" name="name" value={file.name} />
                    <input
                      name="new_name"
                      defaultValue={file.name}
                      aria-label={`New name for ${file.name}`}
                      maxLength={120}
                      autoFocus
                      onKeyDown={(event) => event.key === "Escape" && setEditing(null)}
                    />
                    <button type="submit" className="button button-primary button-small" disabled={busy === file.name}>
                      Save
                    </button>
                    <Link
                      className="button button-ghost button-small"
                      to="/voices"
                      onClick={(event) => {
                        event.preventDefault();
                        setEditing(null);
                      }}
                    >
                      Cancel
                    </Link>
                  </form>
                ) : (
                  <Link
                    className="button button-small"
                    to={`/voices?${new URLSearchParams({ rename: file.name })}`}
                    aria-label={`Rename ${file.name}`}
                    onClick={(event) => {
                      event.preventDefault();
                      setEditing(file.name);
                    }}
                  >
                    Rename
                  </Link>
                )}
                <form method="post" className="inline-form" onSubmit={(event) => remove(event, file.name)}>
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="name" value={file.name} />
                  <button type="submit" className="button button-ghost button-small" aria-label={`Delete ${file.name}`} disabled={busy === file.name}>
                    Delete
                  </button>
                </form>
              </div>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
