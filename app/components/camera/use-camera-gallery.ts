import { useCallback, useEffect, useRef, useState } from "react";
import type { CameraFilter } from "~/browser/camera/camera-filters";
import { captureFilename } from "~/browser/download";
import {
  CameraGalleryStore,
  captureExtension,
  nextCaptureId,
  type CameraGalleryItem,
  type CaptureType,
  type StoredCapture,
} from "~/browser/camera/gallery-store";
import { msg } from "~/common/i18n/translate";

/** English (the catalogue's keys): the screen shows `t(gallery.problem)`. */
export const GALLERY_UNAVAILABLE_TEXT = msg(
  "This browser cannot keep captures (its storage is off or blocked): they stay only until you leave this page.",
);
export const GALLERY_SAVE_FAILED_TEXT = msg(
  "The capture could not be kept: the browser's storage may be full. Delete some captures and try again.",
);
export const GALLERY_CHANGE_FAILED_TEXT = msg(
  "The gallery could not be changed. Please reload the page and try again.",
);

/** A gallery item as the screen shows it: the fields in docs/api.md#entities-and-payloads plus the name it is saved under. */
export interface GalleryEntry extends CameraGalleryItem {
  filename: string;
  /** The capture itself, for "Save to library" (the page's CSP does not let scripts fetch blob: URLs). */
  blob: Blob;
}

function toEntry(capture: Omit<StoredCapture, "owner">): GalleryEntry {
  return {
    id: capture.id,
    type: capture.type,
    filter: capture.filter,
    src: URL.createObjectURL(capture.blob),
    filename: captureFilename(
      `camera-v2-${capture.filter}`,
      new Date(capture.id),
      captureExtension(capture.type, capture.blob.type),
    ),
    blob: capture.blob,
  };
}

/**
 * Camera V2's gallery: loaded from IndexedDB (object URLs made here, released when items go or the
 * page closes), added to on every capture, with delete and Clear All.
 */
export function useCameraGallery(owner: string) {
  const [entries, setEntries] = useState<GalleryEntry[]>([]);
  const [loading, setLoading] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);
  /** The open store; resolves to null when this browser cannot keep captures (they then live in memory). */
  const storeRef = useRef<Promise<CameraGalleryStore | null>>(Promise.resolve(null));
  const urls = useRef(new Set<string>());

  useEffect(() => {
    let cancelled = false;
    const known = urls.current;
    const opening = CameraGalleryStore.open(owner).catch(() => {
      if (!cancelled) setProblem(GALLERY_UNAVAILABLE_TEXT);
      return null;
    });
    storeRef.current = opening;
    opening
      .then(async (store) => {
        if (!store || cancelled) return;
        const loaded = (await store.list()).map(toEntry);
        if (cancelled) return loaded.forEach((entry) => URL.revokeObjectURL(entry.src));
        loaded.forEach((entry) => known.add(entry.src));
        // Captures taken while the gallery was loading are newer: they stay in front.
        setEntries((current) => [
          ...current,
          ...loaded.filter((entry) => !current.some((shown) => shown.id === entry.id)),
        ]);
      })
      .catch(() => {
        if (!cancelled) setProblem(GALLERY_UNAVAILABLE_TEXT);
      })
      .finally(() => {
        if (!cancelled) setLoading(false);
      });
    return () => {
      cancelled = true;
      void opening.then((store) => store?.close());
      storeRef.current = Promise.resolve(null);
      known.forEach((url) => URL.revokeObjectURL(url));
      known.clear();
    };
  }, [owner]);

  const entriesRef = useRef<GalleryEntry[]>([]);
  const usedIds = useRef(new Set<number>());
  useEffect(() => {
    entriesRef.current = entries;
    entries.forEach((entry) => usedIds.current.add(entry.id));
  }, [entries]);

  const add = useCallback(async (type: CaptureType, filter: CameraFilter, blob: Blob) => {
    const capture = { id: nextCaptureId(Date.now(), usedIds.current), type, filter, blob };
    usedIds.current.add(capture.id);
    const store = await storeRef.current;
    if (store) {
      try {
        await store.add(capture);
      } catch {
        setProblem(GALLERY_SAVE_FAILED_TEXT);
        return;
      }
    }
    const entry = toEntry(capture);
    urls.current.add(entry.src);
    setEntries((current) => [entry, ...current]);
  }, []);

  const forget = (removed: GalleryEntry[]) => {
    for (const entry of removed) {
      URL.revokeObjectURL(entry.src);
      urls.current.delete(entry.src);
    }
  };

  const remove = useCallback(async (id: number) => {
    try {
      await (await storeRef.current)?.remove(id);
    } catch {
      setProblem(GALLERY_CHANGE_FAILED_TEXT);
      return;
    }
    forget(entriesRef.current.filter((entry) => entry.id === id));
    setEntries((current) => current.filter((entry) => entry.id !== id));
  }, []);

  const clear = useCallback(async () => {
    try {
      await (await storeRef.current)?.clear();
    } catch {
      setProblem(GALLERY_CHANGE_FAILED_TEXT);
      return;
    }
    forget(entriesRef.current);
    setEntries([]);
  }, []);

  return { entries, loading, problem, add, remove, clear };
}
