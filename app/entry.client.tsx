import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { createTranslator, type Messages } from "./common/i18n/translate";
import { setPageTranslator, TranslatorProvider } from "./components/ui/i18n";

/**
 * React Router's own client entry, with the page's language: its catalogue (only the language the
 * server rendered, named by <html data-catalogue>, preloaded in <head> and cached for good) is read
 * before hydration, so the browser renders exactly the server's text. Without it the page stays as
 * the server sent it, which works without JavaScript.
 */
async function readCatalogue(url: string | undefined): Promise<Messages | null> {
  if (!url) return null;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const response = await fetch(url, { credentials: "same-origin" });
      if (response.ok) return (await response.json()) as Messages;
    } catch {
      // Offline for a moment: one more try, then the page stays server-rendered.
    }
  }
  return null;
}

const root = document.documentElement;
const messages = await readCatalogue(root.dataset.catalogue);
if (messages) {
  const translator = createTranslator(root.lang || "en", messages);
  setPageTranslator(translator);
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <TranslatorProvider value={translator}>
          <HydratedRouter />
        </TranslatorProvider>
      </StrictMode>,
    );
  });
}
