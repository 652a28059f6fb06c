import { useEffect, useRef, useState } from "react";
import { Link, useFetcher } from "react-router";
import { apiJson } from "~/browser/api-client";
import { focusAfterRemoval, focusElement } from "~/browser/focus";
import { hasExtension } from "~/shared/media-names";
import type { IconName } from "~/shared/icons";
import { Icon } from "./icon";
import { EmptyState, MediaHeader } from "./page-header";
import { FlashMessage, OutcomeMessage, formatSize, type Outcome } from "./media-ui";
import type { StorageUsageView } from "./storage-meter";
import { toast } from "./toasts";
import { UPLOAD_SUCCESSFUL, UploadCard } from "./upload-card";
import { useHydrated } from "./use-hydrated";
import { VideoModal } from "./video-modal";

/**
 * A library of the person's files of one kind (Voices, Video Hub): upload with a progress bar (the API
 * client's upload widget), a list, rename and delete (forms posting to the screen's own action,
 * enhanced with fetchers). What differs between the kinds is the small description below.
 */
export interface MediaLibraryKind {
  kind: "voice" | "video";
  /** The screen's URL (its action takes rename and delete; its plain-form upload too). */
  path: string;
  title: string;
  icon: IconName;
  uploadUrl: string;
  uploadSection: string;
  fileLabel: string;
  accept: string;
  /** Whether the browser asks for a file before the form is sent (Voices) or the screen says so (Video Hub). */
  fileRequired: boolean;
  hint: (maxLabel: string) => string;
  listLabel: string;
  testId: string;
  texts: {
    empty: string;
    /** The same for every upload (SPEC §8's voice text): UPLOAD_SUCCESSFUL. */
    uploadOk: string;
    uploadFailed: string;
    /** The upload never got an answer. */
    uploadError: string;
    selectFirst?: string;
    onlyExtension?: string;
    renamed?: string;
    renameFailed: string;
    /** Set when a blank name is refused with this text; unset when a blank name is ignored (SPEC §5). */
    nameRequired?: string;
    deleted?: string;
    deleteFailed: string;
  };
  /** How long the kind's toasts stay (Voices: SPEC §9's 3 s); the app's default otherwise. */
  toastMs?: number;
}

export const VOICE_LIBRARY: MediaLibraryKind = {
  kind: "voice",
  path: "/voices",
  title: "Voices",
  icon: "mic",
  uploadUrl: "/api/voice/upload",
  uploadSection: "Upload a voice clip",
  fileLabel: "Upload MP3",
  accept: ".mp3,audio/mpeg",
  fileRequired: true,
  hint: (maxLabel) => `MP3 only, up to ${maxLabel}.`,
  listLabel: "Voice files",
  testId: "voice-item",
  texts: {
    empty: "No voices yet. Upload an MP3!",
    uploadOk: UPLOAD_SUCCESSFUL,
    uploadFailed: "❌ Upload failed",
    uploadError: "❌ Upload error",
    onlyExtension: "Only MP3 files allowed",
    renamed: "✨ Renamed successfully",
    renameFailed: "Rename failed",
    nameRequired: "Enter a name before saving",
    deleted: "🗑️ File deleted",
    deleteFailed: "Delete failed",
  },
  toastMs: 3000,
};

export const VIDEO_LIBRARY: MediaLibraryKind = {
  kind: "video",
  path: "/videos",
  title: "Video Hub",
  icon: "film",
  uploadUrl: "/api/videos/upload",
  uploadSection: "Upload a video",
  fileLabel: "Choose a video",
  accept: "video/*",
  fileRequired: false,
  hint: (maxLabel) => `Any video format, up to ${maxLabel}.`,
  listLabel: "Videos",
  testId: "video-item",
  texts: {
    empty: "No videos uploaded yet.",
    // SPEC gives videos no success text: the voices' one, so every upload confirms alike (issue 26).
    uploadOk: UPLOAD_SUCCESSFUL,
    uploadFailed: "Failed to upload video.",
    uploadError: "Failed to upload video.",
    selectFirst: "Please select a video first.",
    renameFailed: "Rename failed.",
    deleteFailed: "Failed to delete video.",
  },
};

/** SPEC §8 text of the Video hub's player. */
const PLAYBACK_FAILED = "Playback failed. Please try again.";
const SPEEDS = [0.5, 1, 1.5, 2] as const;

export interface LibraryFile {
  name: string;
  size: number;
  updatedAt?: string;
}

/** What the screen's action answers (a fetcher reads it; a plain form gets it back on a failure). */
export type LibraryAnswer = { intent: "upload" | "rename" | "delete" | null; name?: string; newName?: string } & Outcome;

const videoPage = (name: string) => `/videos/${encodeURIComponent(name)}`;
const voiceUrl = (name: string) => `/static/voices/${encodeURIComponent(name)}`;

export function MediaLibrary({
  kind,
  files,
  maxBytes,
  maxLabel,
  renaming,
  actionData,
  usage,
}: {
  kind: MediaLibraryKind;
  files: LibraryFile[];
  maxBytes: number;
  maxLabel: string;
  renaming: string | null;
  actionData: LibraryAnswer | undefined;
  /** The storage quota's use (issue 15), shown as a meter under the upload form. */
  usage?: StorageUsageView;
}) {
  const { texts } = kind;
  const hydrated = useHydrated();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [editing, setEditing] = useState<string | null>(renaming);
  /** A rename's refusal, shown once beside the name field (no toast); a plain form's comes back as actionData. */
  const [renameError, setRenameError] = useState<(Outcome & { name: string }) | null>(
    actionData?.intent === "rename" && !actionData.ok && actionData.name ? { ...actionData, name: actionData.name } : null,
  );
  /** The row whose Rename link takes the focus once it is shown (after a rename or a cancelled one). */
  const [focusRow, setFocusRow] = useState<string | null>(null);
  const [playing, setPlaying] = useState<{ name: string; url: string } | null>(null);
  const [speed, setSpeed] = useState<number>(1);
  const [loop, setLoop] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  const lastPlayed = useRef<HTMLAudioElement | null>(null);
  const renameFetcher = useFetcher<LibraryAnswer>({ key: `${kind.kind}-rename` });
  const deleteFetcher = useFetcher<LibraryAnswer>({ key: `${kind.kind}-delete` });
  const busyName = (renameFetcher.formData ?? deleteFetcher.formData)?.get("name") ?? null;

  // Speed and loop apply to every player, including ones that appear after an upload.
  useEffect(() => {
    listRef.current?.querySelectorAll("audio").forEach((audio) => {
      audio.playbackRate = speed;
      audio.defaultPlaybackRate = speed;
      audio.loop = loop;
    });
  }, [speed, loop, files]);

  /** A success without a SPEC text says nothing; a failure says its text in a toast and in the page. */
  const say = (result: Outcome, tone: "success" | "error" | "warning" = result.ok ? "success" : "error") => {
    setOutcome(result.ok && !result.detail ? null : result);
    if (result.message) toast[tone](result.message, kind.toastMs ? { autoClose: kind.toastMs } : undefined);
  };

  // The answers of rename and delete (the screen's action, through the fetchers).
  useAnswer(renameFetcher, (answer) => {
    if (!answer.ok) return setRenameError({ ...answer, name: answer.name ?? editing ?? "" });
    say(answer);
    setRenameError(null);
    setEditing(null);
    setFocusRow(answer.newName ?? answer.name ?? null);
  });

  // The rename form unmounts when a rename ends: the renamed row's Rename link takes the focus.
  useEffect(() => {
    if (!focusRow) return;
    const link = listRef.current?.querySelector<HTMLElement>(`[data-rename="${CSS.escape(focusRow)}"]`);
    if (link) {
      setFocusRow(null);
      focusElement(link);
    }
  }, [focusRow, files, editing]);

  const stopEditing = (name: string) => {
    setRenameError(null);
    setEditing(null);
    setFocusRow(name);
  };
  useAnswer(deleteFetcher, say);

  const rename = (event: React.FormEvent<HTMLFormElement>, name: string) => {
    event.preventDefault();
    const newName = String(new FormData(event.currentTarget).get("new_name") ?? "").trim();
    if (!newName) {
      // SPEC §5: Voices refuse a blank name (said beside the field); the Video hub ignores it.
      if (texts.nameRequired) return setRenameError({ ok: false, message: texts.nameRequired, name });
      return stopEditing(name);
    }
    setRenameError(null);
    renameFetcher.submit({ intent: "rename", name, new_name: newName, enhanced: "1" }, { method: "post", action: kind.path });
  };

  const remove = (event: React.FormEvent<HTMLFormElement>, name: string) => {
    event.preventDefault();
    // The row goes (and its Delete is disabled at once): the next row's Delete takes the focus.
    focusAfterRemoval(event.currentTarget.closest("li"), "button[data-delete]", () => document.querySelector<HTMLElement>("main h1"));
    deleteFetcher.submit({ intent: "delete", name, enhanced: "1" }, { method: "post", action: kind.path });
  };

  const play = async (event: React.MouseEvent, name: string) => {
    event.preventDefault();
    try {
      const { url } = await apiJson<{ url: string }>(`/api/videos/signed_url?${new URLSearchParams({ filename: name })}`);
      setPlaying({ name, url });
    } catch {
      say({ ok: false, message: PLAYBACK_FAILED });
    }
  };

  const restart = () => {
    const audio = lastPlayed.current ?? listRef.current?.querySelector("audio");
    if (!audio) return;
    audio.currentTime = 0;
    void audio.play().catch(() => {});
  };

  const renameForm = (name: string) => {
    const error = renameError?.name === name ? renameError : null;
    const errorId = `${kind.kind}-rename-error`;
    return (
    <form method="post" className="media-rename" onSubmit={(event) => rename(event, name)}>
      <input type="hidden" name="intent" value="rename" />
      <input type="hidden" name="name" value={name} />
      <input
        name="new_name"
        defaultValue={name}
        aria-label={`New name for ${name}`}
        maxLength={120}
        autoFocus
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={() => error && setRenameError(null)}
        onKeyDown={(event) => event.key === "Escape" && stopEditing(name)}
      />
      <button type="submit" className="button button-primary button-small" disabled={busyName === name}>
        Save
      </button>
      {kind.kind === "voice" ? (
        <Link
          className="button button-ghost button-small"
          to={kind.path}
          onClick={(event) => {
            event.preventDefault();
            stopEditing(name);
          }}
        >
          Cancel
        </Link>
      ) : null}
      {error ? (
        <p className="field-error media-rename-error" id={errorId} role="alert" data-testid="rename-error">
          {error.message}
          {error.detail ? <span className="message-detail">{error.detail}</span> : null}
        </p>
      ) : null}
    </form>
    );
  };

  const renameLink = (name: string) => (
    <Link
      className="button button-small"
      to={`${kind.path}?${new URLSearchParams({ rename: name })}`}
      aria-label={`Rename ${name}`}
      data-rename={name}
      onClick={(event) => {
        event.preventDefault();
        setEditing(name);
      }}
    >
      Rename
    </Link>
  );

  const deleteForm = (name: string) => (
    <form method="post" className="inline-form" onSubmit={(event) => remove(event, name)}>
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="name" value={name} />
      <button type="submit" className="button button-ghost button-small" aria-label={`Delete ${name}`} disabled={busyName === name} data-delete>
        Delete
      </button>
    </form>
  );

  return (
    <main className="page media-page">
      <MediaHeader title={kind.title} icon={kind.icon} />

      {/* Upload beside the list on wide screens; one column on phones. */}
      <div className="workspace media-workspace">
      <div className="media-column">
      <UploadCard
        section={kind.uploadSection}
        uploadUrl={kind.uploadUrl}
        fileLabel={kind.fileLabel}
        accept={kind.accept}
        fileRequired={kind.fileRequired}
        hint={kind.hint(maxLabel)}
        maxBytes={maxBytes}
        maxLabel={maxLabel}
        texts={texts}
        // SPEC §5: voices take only names ending in .mp3 (the server also checks the content).
        refuse={(file) => (texts.onlyExtension && !hasExtension(file.name, kind.kind) ? texts.onlyExtension : null)}
        toastMs={kind.toastMs}
        answer={actionData?.intent === "upload" ? actionData : null}
        usage={usage}
        id={`${kind.kind}-upload-file`}
      />

      <FlashMessage />
      {/* What is not a field's own error (a delete, a playback); a plain form's answer too. */}
      <OutcomeMessage outcome={outcome ?? (actionData?.intent === "upload" || actionData?.intent === "rename" ? null : actionData)} />
      </div>

      <div className="media-column">
      {kind.kind === "voice" ? (
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
            <Icon name="repeat" />
            Loop: {loop ? "on" : "off"}
          </button>
          <button type="button" className="button" onClick={restart} disabled={!hydrated || files.length === 0}>
            <Icon name="rotate-ccw" />
            Restart
          </button>
        </section>
      ) : null}

      {files.length === 0 ? (
        <EmptyState icon={kind.icon} className="media-empty">
          <p>{texts.empty}</p>
        </EmptyState>
      ) : (
        <ul className="media-list" aria-label={kind.listLabel} ref={listRef}>
          {files.map((file) =>
            kind.kind === "voice" ? (
              <li key={file.name} className="media-item" data-testid={kind.testId}>
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
                  {editing === file.name ? renameForm(file.name) : renameLink(file.name)}
                  {deleteForm(file.name)}
                </div>
              </li>
            ) : (
              <li key={file.name} className="media-item" data-testid={kind.testId}>
                <div className="media-item-head">
                  {editing === file.name ? (
                    renameForm(file.name)
                  ) : (
                    <Link className="media-name" to={videoPage(file.name)}>
                      {file.name}
                    </Link>
                  )}
                  <span className="muted media-size">
                    {formatSize(file.size)} ·{" "}
                    {new Date(file.updatedAt ?? 0).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC
                  </span>
                </div>
                <div className="media-actions">
                  <Link className="button button-primary button-small" to={videoPage(file.name)} onClick={(event) => play(event, file.name)} aria-label={`Play ${file.name}`}>
                    <Icon name="play" />
                    Play
                  </Link>
                  {editing === file.name ? null : renameLink(file.name)}
                  {deleteForm(file.name)}
                </div>
              </li>
            ),
          )}
        </ul>
      )}
      </div>
      </div>

      {kind.kind === "video" ? (
        <VideoModal
          video={playing}
          onClose={() => setPlaying(null)}
          onError={() => {
            setPlaying(null);
            say({ ok: false, message: PLAYBACK_FAILED });
          }}
        />
      ) : null}
    </main>
  );
}

/** Calls `handle` once with each new answer a fetcher brings back. */
function useAnswer(fetcher: { state: string; data?: LibraryAnswer }, handle: (answer: LibraryAnswer) => void) {
  const handled = useRef<unknown>(null);
  const latest = useRef(handle);
  latest.current = handle;
  useEffect(() => {
    const answer = fetcher.data;
    if (fetcher.state !== "idle" || !answer || handled.current === answer) return;
    handled.current = answer;
    latest.current(answer);
  }, [fetcher.state, fetcher.data]);
}
