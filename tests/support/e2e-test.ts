// Every Playwright spec imports `test` and `expect` from here: the same as @playwright/test's, with two
// rules added for every test. The app asks and alerts in its own dialogs (docs/screens.md), so a native
// alert(), confirm() or prompt() opening in any page of the test fails it; and with JavaScript on, a page
// the test opens is acted on once React has hydrated it (`hydrated`, which specs also call after a
// navigation of their own).
import { test as base, expect, type Browser, type BrowserContext, type Dialog, type Page } from "@playwright/test";

export * from "@playwright/test";

function watchDialogs(context: BrowserContext, opened: string[]) {
  const onDialog = (dialog: Dialog) => {
    opened.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  };
  for (const page of context.pages()) page.on("dialog", onDialog);
  context.on("page", (page) => page.on("dialog", onDialog));
}

/** Whether a page holds the app as React Router serves it (its context script ran), so it hydrates. */
function isAppPage(page: Page) {
  return page.evaluate(() => "__reactRouterContext" in window).catch(() => false);
}

/**
 * With JavaScript on, a page the test opens (goto, reload, back, forward) is acted on once React has
 * hydrated it: the specs test the enhanced app, and before hydration a click does what it does without
 * JavaScript (the JavaScript-off specs test that). A page without the app's scripts (a shared page, a
 * file, a JSON answer) is not waited for.
 */
function actOnHydratedPages(page: Page) {
  for (const name of ["goto", "reload", "goBack", "goForward"] as const) {
    const navigate = page[name].bind(page) as (...args: unknown[]) => ReturnType<Page["reload"]>;
    (page as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const response = await navigate(...args);
      if (await isAppPage(page)) await hydrated(page);
      return response;
    };
  }
}

function actOnHydratedPagesOf(context: BrowserContext) {
  for (const page of context.pages()) actOnHydratedPages(page);
  context.on("page", actOnHydratedPages);
}

export const test = base.extend<{ watchedPages: void }>({
  // Every page the test opens, in its own context or one it makes (browser.newContext or browser.newPage):
  // no native dialog may open, and with JavaScript on it is acted on once hydrated.
  watchedPages: [
    async ({ context, browser, javaScriptEnabled }, use) => {
      const opened: string[] = [];
      const watch = (watched: BrowserContext, withJavaScript: boolean) => {
        watchDialogs(watched, opened);
        if (withJavaScript) actOnHydratedPagesOf(watched);
      };
      watch(context, javaScriptEnabled !== false);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = (async (...args: Parameters<Browser["newContext"]>) => {
        const created = await newContext(...args);
        watch(created, args[0]?.javaScriptEnabled !== false);
        return created;
      }) as Browser["newContext"];
      try {
        await use();
      } finally {
        browser.newContext = newContext;
      }
      expect(opened, "a native dialog opened; the app must use its own").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Resolves once React has hydrated the page: the root (`hydrateRoot(document)`, app/entry.client.tsx)
 * has committed its first tree. A fiber on `<main>` is not enough: hydration runs in a transition, and
 * during its render phase the elements carry fibers that React does not treat as mounted yet, so a
 * click then does what it does without JavaScript (a link navigates, a form posts) on a loaded machine.
 */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const key = Object.keys(document).find((name) => name.startsWith("__reactContainer"));
    const hostRoot = key
      ? (document as unknown as Record<string, { stateNode?: { current?: { child?: unknown } } }>)[key]
      : undefined;
    return !!hostRoot?.stateNode?.current?.child;
  });
}
