import type { Page } from "@playwright/test";

/**
 * Stops the page's timers (on Playwright's clock, which this installs unless page.clock.install() was
 * called): from here they run only when the test moves the clock on (page.clock.runFor) or resumes it.
 */
export async function pausePageClock(page: Page): Promise<void> {
  // A second ahead of now, so that the page's clock (real, or Playwright's, which starts at now) is never past it;
  // timers due by then fire once.
  await page.clock.pauseAt(Date.now() + 1000);
}
