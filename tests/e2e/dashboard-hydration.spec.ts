import { expect, test, type Page, hydrated } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

// The dashboard's document carries its content rows once, in the markup; the browser hydrates the
// list from that markup (app/components/ui/use-markup-only.tsx, decision 0024). What must hold: the page
// hydrates without a mismatch, the rows it reads are the server's (ids, titles, pins), and a pin
// places its row by last change across the pinned and unpinned groups before the server answers.

const rowTitles = (page: Page) => page.getByRole("list", { name: "Content items" }).getByRole("link").allTextContents();

test("the dashboard hydrates its rows from the markup, and a pin re-sorts them by last change at once", async ({
  page,
}) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));

  await signUpAndLogIn(page, "hydrate-rows");
  // Oldest first: Delta is the most recent. Bravo is pinned, so the server's order is Bravo, Delta,
  // Charlie, Echo & "quotes" <b>, Alpha.
  const ids: Record<string, string> = {};
  for (const title of ["Alpha", 'Echo & "quotes" <b>', "Bravo", "Charlie", "Delta"]) {
    const created = await page.request.post("/api/content", { data: { title, body: `${title} body` } });
    expect(created.status()).toBe(201);
    ids[title] = (await created.json()).id;
  }
  expect((await page.request.post(`/api/content/${ids.Bravo}/pin`, { data: { pinned: true } })).status()).toBe(200);

  // The document itself: each title once (the row's link), none in the hydration data.
  const html = await (await page.request.get("/dashboard")).text();
  expect(html.split(">Charlie</a>").length - 1).toBe(1);
  expect(html.split("Charlie").length - 1).toBe(1);
  // A client-side navigation's data request carries the rows as data.
  const data = await (await page.request.get("/dashboard.data")).text();
  expect(data).toContain("Charlie");
  expect(data).toContain(ids.Charlie);

  await page.goto("/dashboard");
  await hydrated(page);
  expect(await rowTitles(page)).toEqual(["Bravo", "Delta", "Charlie", 'Echo & "quotes" <b>', "Alpha"]);

  // Hold the pins' answers back: the order shown meanwhile is the list's own, from what it hydrated.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/content\/[^/]+$/, async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    await held;
    await route.continue();
  });

  // Unpinning Bravo puts it back by its last change: after Charlie, before Echo.
  await page.getByRole("button", { name: "Unpin Bravo", exact: true }).click();
  await expect.poll(() => rowTitles(page)).toEqual(["Delta", "Charlie", "Bravo", 'Echo & "quotes" <b>', "Alpha"]);
  // Pinning Alpha, the oldest, puts it first.
  await page.getByRole("button", { name: "Pin Alpha", exact: true }).click();
  await expect.poll(() => rowTitles(page)).toEqual(["Alpha", "Delta", "Charlie", "Bravo", 'Echo & "quotes" <b>']);
  await expect(page.getByRole("button", { name: "Unpin Alpha", exact: true })).toHaveText("★");

  release();
  // The server agrees, and the rows' links and forms still name the right items.
  await expect(page.getByRole("button", { name: "Pin Bravo", exact: true })).toHaveText("☆");
  await expect.poll(() => rowTitles(page)).toEqual(["Alpha", "Delta", "Charlie", "Bravo", 'Echo & "quotes" <b>']);
  await expect(page.getByRole("link", { name: 'Echo & "quotes" <b>' })).toHaveAttribute(
    "href",
    `/content/${ids['Echo & "quotes" <b>']}`,
  );
  // The pins' revalidations settled first, as a person's next click would find them (a click amid
  // them sometimes left the navigation pending on a busy machine, on older code as now).
  await page.waitForLoadState("networkidle");
  await page.getByRole("link", { name: "Charlie", exact: true }).click();
  await expect(page).toHaveURL(`/content/${ids.Charlie}`);
  await expect(page.getByText("Charlie body")).toBeVisible();

  expect(problems.filter((text) => /hydrat|did not match|mismatch|markup-only/i.test(text))).toEqual([]);
});
