import { expect, type APIRequestContext, type Page } from "@playwright/test";

/**
 * AI video clips for the specs (decision 0043): made through the API by the local test renderer, which works
 * offline. The server's one job runner works two jobs at a time for everyone: a job may wait behind
 * other tests' jobs, and a busy machine renders slowly. So a spec waits this long, through the API or with
 * a screen whose polls follow the job (aivideo.spec.ts), never against the screen's 15 polls.
 */
export const JOB_WAIT_MS = 60_000;

/** Starts a job for the signed-in person and waits for its clip: the job's id and the clip's media id. */
export async function generateVideo(
  request: APIRequestContext,
  prompt: string,
): Promise<{ jobId: string; mediaId: string; url: string }> {
  const created = await request.post("/api/aivideo/", { data: { prompt } });
  expect(created.status()).toBe(202);
  const jobId = ((await created.json()) as { id: string }).id;
  let status: { status: string; media_id: string | null; url: string | null } = {
    status: "starting",
    media_id: null,
    url: null,
  };
  await expect
    .poll(
      async () => {
        status = await (await request.get(`/api/aivideo/status/${jobId}`)).json();
        return status.status;
      },
      { timeout: JOB_WAIT_MS, intervals: [500] },
    )
    .toBe("completed");
  return { jobId, mediaId: status.media_id!, url: status.url! };
}

/** Text on the page that looks like a raw id: a UUID, or a `vid_…` generation id. */
export const RAW_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\bvid_[\w-]+/i;

/** What the page shows in words (innerText: hidden parts and attributes aside). */
export const shownText = (page: Page) => page.locator("body").innerText();
