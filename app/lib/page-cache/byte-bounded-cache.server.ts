/**
 * A map that holds at most `maxBytes` of values, least recently used dropped first (docs/performance.md: the
 * kept dashboard pages and API answers). What a value costs is the caller's `sizeOf`; a value larger
 * than `maxEntryBytes` (or than the whole bound) is not kept at all.
 */
export interface ByteBoundedCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  readonly size: number;
  readonly bytes: number;
}

export function createByteBoundedCache<V>({
  maxBytes,
  maxEntryBytes = maxBytes,
  sizeOf,
}: {
  maxBytes: number;
  maxEntryBytes?: number;
  sizeOf: (value: V) => number;
}): ByteBoundedCache<V> {
  const entries = new Map<string, { value: V; bytes: number }>();
  let heldBytes = 0;

  const forget = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    heldBytes -= entry.bytes;
  };

  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      // Most recently used last: a Map keeps insertion order.
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      const bytes = sizeOf(value);
      forget(key);
      if (bytes > maxEntryBytes || bytes > maxBytes) return;
      entries.set(key, { value, bytes });
      heldBytes += bytes;
      for (const oldest of entries.keys()) {
        if (heldBytes <= maxBytes) break;
        forget(oldest);
      }
    },
    delete: forget,
    get size() {
      return entries.size;
    },
    get bytes() {
      return heldBytes;
    },
  };
}
