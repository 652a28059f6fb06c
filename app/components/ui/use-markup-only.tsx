import { createContext, useContext } from "react";

/**
 * The browser half of app/lib/screens/markup-only.server.ts. On the server, entry.server.tsx provides the
 * values the loaders kept out of the hydration data; in the browser there is no provider, and a value
 * the loader data lacks is read back from the markup being hydrated, once per loader data object.
 */
const MarkupOnlyData = createContext<ReadonlyMap<string, unknown> | null>(null);

export const MarkupOnlyProvider = MarkupOnlyData.Provider;

const readFromMarkup = new WeakMap<object, unknown>();

/**
 * `fromLoader` when the loader data has it (every `.data` answer); otherwise, on the server, what the
 * loader handed to the render under `key`, and in the browser `readMarkup()`: called while the page
 * hydrates, when the DOM is still exactly what the server rendered. `owner` is the loader data object
 * the value belongs to (its reading is remembered with it, so a later render never reads a changed DOM).
 */
export function useMarkupOnly<T>(key: string, fromLoader: T | null, owner: object, readMarkup: () => T): T {
  const server = useContext(MarkupOnlyData);
  if (fromLoader !== null) return fromLoader;
  if (server) {
    if (!server.has(key)) throw new Error(`markup-only value "${key}" was not handed to the render`);
    return server.get(key) as T;
  }
  if (!readFromMarkup.has(owner)) readFromMarkup.set(owner, readMarkup());
  return readFromMarkup.get(owner) as T;
}
