import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { launchServer } from "../harness/launch.mjs";
import { expect, test } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

/**
 * The AI video screen's list of the person's jobs (docs/screens.md#ai-video-jobs, decision 0075): Cancel,
 * Retry and Up/Down, with JavaScript (fetchers, the list read again while jobs are active) and without
 * (plain forms, the page's own refresh). The server works two jobs at once: another person's three
 * jobs fill the runner first, so this person's jobs wait long enough (each render takes 4 s or more)
 * to be reordered. A server of its own: filling the shared server's runner would hold up every other
 * test's video past the screen's polling limit.
 */

let server: Awaited<ReturnType<typeof launchServer>>;
test.beforeAll(async () => {
  server = await launchServer({
    dataDirPrefix: "studio-e2e-video-jobs-",
    env: { SESSION_SECRET: "e2e-session-secret-that-is-long-enough-0123456789" },
    timeoutMs: 120_000,
  });
});
test.afterAll(async () => {
  await server?.stop();
});

/** A page on this spec's server (localhost: a secure context for the cookies). */
async function pageOnServer(browser: Browser, javaScriptEnabled: boolean, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ baseURL: `http://localhost:${server.port}`, javaScriptEnabled, viewport });
  return { page: await context.newPage(), close: () => context.close() };
}

async function startJobs(request: APIRequestContext, prompts: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const prompt of prompts) {
    const response = await request.post("/api/aivideo/", { data: { prompt } });
    expect(response.status()).toBe(202);
    ids.push((await response.json()).id);
  }
  return ids;
}

/** Cancels whatever is still unfinished, so the runner is free for the next test. */
async function cancelAll(request: APIRequestContext) {
  const jobs = (await (await request.get("/api/aivideo")).json()) as { id: string; status: string }[];
  for (const job of jobs) await request.post(`/api/aivideo/${job.id}/cancel`);
}

/** Another person whose jobs keep the runner's slots busy. */
async function occupier(browser: Browser) {
  const context = await browser.newContext({ baseURL: `http://localhost:${server.port}` });
  const page = await context.newPage();
  await signUpAndLogIn(page, "aivideo-jobs-busy");
  await startJobs(page.request, ["Busy one", "Busy two", "Busy three"]);
  return {
    request: page.request,
    close: async () => {
      await cancelAll(page.request);
      await context.close();
    },
  };
}

const item = (page: Page, prompt: string) => page.getByTestId("video-job").filter({ hasText: prompt });
/** The prompts of the waiting jobs, in their order on the screen (none while the page reloads itself). */
const waitingLine = async (page: Page) =>
  (
    await page
      .getByTestId("video-job")
      .filter({ hasText: "in your queue" })
      .getByTestId("video-job-prompt")
      .allTextContents()
      .catch(() => [])
  ).map((text) => /^Mine (\w+)$/.exec(text)?.[1]);

async function controlJobs(browser: Browser, javaScript: boolean, viewport: { width: number; height: number }) {
  test.setTimeout(150_000);
  const { page, close } = await pageOnServer(browser, javaScript, viewport);
  let busy: Awaited<ReturnType<typeof occupier>> | null = await occupier(browser);
  try {
    await signUpAndLogIn(page, javaScript ? "aivideo-jobs" : "aivideo-jobs-nojs");
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.resourceType() === "document") documents.push(request.url());
    });
    await startJobs(page.request, ["Mine first", "Mine second", "Mine third"]);
    await page.goto("/aivideo");
    const list = page.getByRole("region", { name: "Your video jobs" });
    await expect(list).toBeVisible();
    await expect(page.getByTestId("video-job")).toHaveCount(3);
    // Without JavaScript the page refreshes itself while jobs are active.
    if (!javaScript) await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(1);

    // The line's tail is reordered: its head may be taken by the runner meanwhile, the tail waits
    // for two more free slots (8 s or more).
    const order = async () => {
      const line = await waitingLine(page);
      if (!line.includes("second") || !line.includes("third")) return "not both waiting";
      return line.indexOf("second") < line.indexOf("third") ? "second, third" : "third, second";
    };
    await expect.poll(order).toBe("second, third");
    await page.getByRole("button", { name: "Move down: Mine second" }).click();
    await expect.poll(order).toBe("third, second");
    await page.getByRole("button", { name: "Move up: Mine second" }).click();
    await expect.poll(order).toBe("second, third");
    // The end of the line has no Down.
    await expect(page.getByRole("button", { name: "Move down: Mine third" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Move up: Mine third" })).toHaveCount(1);
    // The runner's slots go back to everyone else's tests at once.
    await busy?.close();
    busy = null;

    await page.getByRole("button", { name: "Cancel: Mine third" }).click();
    await expect(item(page, "Mine third").getByTestId("video-job-state")).toHaveText("Cancelled.");
    await expect(item(page, "Mine third")).toHaveAttribute("data-status", "cancelled");
    await expect(page.getByRole("button", { name: "Cancel: Mine third" })).toHaveCount(0);
    const cancelled = (await (await page.request.get("/api/aivideo")).json()) as { prompt: string; status: string }[];
    expect(cancelled.find((job) => job.prompt === "Mine third")?.status).toBe("cancelled");

    await page.getByRole("button", { name: "Retry: Mine third" }).click();
    await expect(page).toHaveURL(/\/aivideo\?job=[0-9a-f-]{36}$/);
    await expect(item(page, "Mine third")).toHaveCount(2);
    await expect(page.getByTestId("video-status")).toBeVisible();

    // With JavaScript every control went through a fetcher, never a page post.
    if (javaScript) expect(documents).toEqual([]);
    else expect(documents.length).toBeGreaterThanOrEqual(4);

    // Once nothing is active, the page stops refreshing itself.
    await cancelAll(page.request);
    // (Without JavaScript, the page's own refresh may interrupt this load once: then it is tried again.)
    await expect(async () => {
      await page.goto("/aivideo");
      await expect(page.getByTestId("video-job")).toHaveCount(4, { timeout: 1000 });
      await expect(page.getByRole("button", { name: /^Cancel: / })).toHaveCount(0, { timeout: 1000 });
      await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
  } finally {
    await cancelAll(page.request).catch(() => {});
    await busy?.close();
    busy = null;
    await close();
  }
}

// One at a time: each test fills the runner for a few seconds.
test.describe.configure({ mode: "serial" });

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
]) {
  test.describe(`AI video jobs at ${viewport.width}×${viewport.height}`, () => {
    test("Cancel, Retry and Up/Down on the person's jobs, with JavaScript", async ({ browser }) => {
      await controlJobs(browser, true, viewport);
    });

    test("with JavaScript off: Cancel, Retry and Up/Down as plain forms; the page refreshes itself while jobs run", async ({
      browser,
    }) => {
      await controlJobs(browser, false, viewport);
    });
  });
}
