import { createContext, type RouterContextProvider } from "react-router";
import { isDocumentRequest } from "~/lib/http/responder.server";

/**
 * Data a page shows in its markup that need not also travel as its hydration data (decision 0024: the
 * dashboard's 100 rows were sent twice, once as HTML and once as loader data, 14 KB of 64). For a
 * document, the loader hands the value to the server render through this per-request store and the
 * loader data carries null; the browser reads the value back from the markup it hydrates
 * (app/components/ui/use-markup-only.tsx). A client-side navigation's `.data` request has no markup, so
 * it carries the value as usual. docs/decisions/0024-markup-only-data.md.
 */
export const markupOnlyContext = createContext<Map<string, unknown> | null>(null);

/** `value` for a data request; null for a document, whose render gets `value` under `key` instead. */
export function sendInMarkupOnly<T>(
  context: Readonly<RouterContextProvider>,
  request: Request,
  key: string,
  value: T,
): T | null {
  if (!isDocumentRequest(request)) return value;
  let store = context.get(markupOnlyContext);
  if (!store) context.set(markupOnlyContext, (store = new Map()));
  store.set(key, value);
  return null;
}
