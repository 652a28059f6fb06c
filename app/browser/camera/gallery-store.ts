/**
 * Camera V2's gallery, kept in the browser's IndexedDB (localStorage cannot hold video). Photos and
 * videos are stored as Blobs; each signed-in person has their own shelf, so a shared browser does
 * not show one person's captures to the next.
 */
import type { CameraFilter } from "./camera-filters";

export type CaptureType = "photo" | "video";

/** the camera gallery item in docs/api.md#entities-and-payloads; `src` is an object URL made when the gallery is loaded. */
export interface CameraGalleryItem {
  id: number;
  type: CaptureType;
  src: string;
  filter: CameraFilter;
}

/** What IndexedDB holds for one capture. */
export interface StoredCapture {
  owner: string;
  /** The capture's timestamp (ms), unique per owner. */
  id: number;
  type: CaptureType;
  filter: CameraFilter;
  blob: Blob;
}

const DATABASE_NAME = "creative-ai-studio-capture";
const DATABASE_VERSION = 1;
const STORE = "cameraGallery";

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function completed(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error ?? new DOMException("Transaction aborted", "AbortError"));
  });
}

function openDatabase(): Promise<IDBDatabase> {
  if (typeof indexedDB === "undefined") return Promise.reject(new Error("IndexedDB is not available"));
  const request = indexedDB.open(DATABASE_NAME, DATABASE_VERSION);
  request.onupgradeneeded = () => {
    // [owner, id]: one person's captures are a key range, already in time order.
    request.result.createObjectStore(STORE, { keyPath: ["owner", "id"] });
  };
  return promised(request);
}

export class CameraGalleryStore {
  private constructor(
    private readonly database: IDBDatabase,
    private readonly owner: string,
  ) {}

  static async open(owner: string): Promise<CameraGalleryStore> {
    const database = await openDatabase();
    // Another tab upgrading the schema later: let it, and reopen on next use.
    database.onversionchange = () => database.close();
    return new CameraGalleryStore(database, owner);
  }

  private range() {
    return IDBKeyRange.bound([this.owner, -Infinity], [this.owner, Infinity]);
  }

  /** Newest first. */
  async list(): Promise<StoredCapture[]> {
    const store = this.database.transaction(STORE, "readonly").objectStore(STORE);
    const captures = (await promised(store.getAll(this.range()))) as StoredCapture[];
    return captures.reverse();
  }

  async add(capture: Omit<StoredCapture, "owner">): Promise<void> {
    const transaction = this.database.transaction(STORE, "readwrite");
    transaction.objectStore(STORE).add({ ...capture, owner: this.owner } satisfies StoredCapture);
    await completed(transaction);
  }

  async remove(id: number): Promise<void> {
    const transaction = this.database.transaction(STORE, "readwrite");
    transaction.objectStore(STORE).delete([this.owner, id]);
    await completed(transaction);
  }

  async clear(): Promise<void> {
    const transaction = this.database.transaction(STORE, "readwrite");
    transaction.objectStore(STORE).delete(this.range());
    await completed(transaction);
  }

  close() {
    this.database.close();
  }
}

/** A timestamp id that is unique even for two captures within one millisecond. */
export function nextCaptureId(now: number, existingIds: Iterable<number>): number {
  let latest = -Infinity;
  for (const id of existingIds) latest = Math.max(latest, id);
  return Math.max(now, latest + 1);
}

/** The file extension a stored capture is saved with, from its Blob's type. */
export function captureExtension(type: CaptureType, mimeType: string): string {
  if (type === "photo") return "png";
  return mimeType.startsWith("video/mp4") ? "mp4" : "webm";
}
