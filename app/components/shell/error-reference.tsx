import { createContext, useContext, useState } from "react";

/** The request's id (X-Request-Id, set by the front door), given by app/entry.server.tsx. Server only. */
const RequestIdContext = createContext<string | null>(null);
export const RequestIdProvider = RequestIdContext.Provider;

/** The attribute the error page's reference carries the id in (app/root.tsx), read back by the browser while it hydrates. */
const REQUEST_ID_ATTRIBUTE = "data-request-id";

/**
 * The id of the request that met `error`, for the error page's "Reference": on the server the front
 * door's; in the browser the one the server's page shows, read once while hydrating it, so that both
 * render the same text. An error met later in the browser (a navigation) has no id here: none is shown.
 */
export function useRequestId(error: unknown): string | null {
  const fromServer = useContext(RequestIdContext);
  const [fromPage] = useState(() => ({
    error,
    id:
      typeof document === "undefined"
        ? null
        : (document.querySelector(`[${REQUEST_ID_ATTRIBUTE}]`)?.getAttribute(REQUEST_ID_ATTRIBUTE) ?? null),
  }));
  if (fromServer) return fromServer;
  return fromPage.error === error ? fromPage.id : null;
}
