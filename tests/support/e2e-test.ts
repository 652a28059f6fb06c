// Every Playwright spec imports `test` and `expect` from here: the same as @playwright/test's, with one
// rule added for every test. The app asks and alerts in its own dialogs (docs/screens.md), so a native
// alert(), confirm() or prompt() opening in any page of the test fails it. Also `hydrated`, the wait
// for React's hydration that specs with JavaScript share.
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

export const test = base.extend<{ noNativeDialogs: void }>({
  noNativeDialogs: [
    async ({ context, browser }, use) => {
      const opened: string[] = [];
      watchDialogs(context, opened);
      // Contexts a test opens itself (browser.newContext or browser.newPage) are watched too.
      const newContext = browser.newContext.bind(browser);
      browser.newContext = (async (...args: Parameters<Browser["newContext"]>) => {
        const created = await newContext(...args);
        watchDialogs(created, opened);
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

/** Resolves once React has hydrated the page (its root element carries React's fiber). */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const main = document.querySelector("main") ?? document.body.firstElementChild;
    return !!main && Object.keys(main).some((key) => key.startsWith("__reactFiber"));
  });
}
