import { expect, test, type Page } from "../support/e2e-test";
import { PNG_BYTES } from "../support/media";
import { signUpAndLogIn } from "../support/e2e-session";

/**
 * The library's files first (docs/screens.md, "Library: upload bar, filters, cards"): a compact upload
 * bar, filters that apply as they change, an attachment that keeps the page where it is and says so
 * on its card, titles that are the prompt or the person's name with the machine's names under
 * Details, and each card's actions on one row; the same forms without JavaScript.
 */

const items = (page: Page) => page.getByTestId("library-item");
const titles = (page: Page) => items(page).locator(".library-name").allTextContents();
const PROMPT = "Waves on the harbour wall at dawn";

async function savePhoto(page: Page, name: string) {
  const answer = await page.request.post("/api/library/upload", {
    multipart: { kind: "photo", file: { name, mimeType: "image/png", buffer: PNG_BYTES } },
  });
  expect(answer.status()).toBe(201);
  return (await answer.json()) as { id: string; name: string };
}

async function speak(page: Page, text: string) {
  const spoken = await page.request.post("/api/voice/generate", { data: { text, voice_id: "" } });
  expect(spoken.status(), await spoken.text()).toBeLessThan(300);
  const listed = await (await page.request.get("/api/library?kind=speech")).json();
  return listed.files.find((file: { provenance: { prompt: string } | null }) => file.provenance?.prompt === text) as {
    id: string;
    name: string;
  };
}

async function project(page: Page, title: string) {
  const created = await page.request.post("/api/project/create", { data: { title } });
  expect(created.status()).toBe(201);
  return (await created.json()).id as string;
}

/** The tops and heights of a card's action controls (buttons, links and the Attach summary). */
const actionBoxes = (item: ReturnType<typeof items>) =>
  item.locator(".library-actions").evaluate((row) =>
    [...row.querySelectorAll(":scope > .button, :scope > form > .button, :scope > .library-attach > summary")].map(
      (control) => {
        const box = control.getBoundingClientRect();
        return { top: Math.round(box.top), height: Math.round(box.height), bottom: Math.round(box.bottom) };
      },
    ),
  );

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
]) {
  test.describe(`the library at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test("the upload is one compact bar and still uploads", async ({ page }) => {
      await signUpAndLogIn(page, "library-bar");
      await page.goto("/library");
      const bar = page.getByRole("region", { name: "Upload a file" });
      const box = (await bar.boundingBox())!;
      expect(box.height, "the upload bar's height").toBeLessThanOrEqual(viewport.width >= 1024 ? 110 : 180);
      // The kind, the picker and Upload on one line on a laptop.
      if (viewport.width >= 1024) {
        const tops = await Promise.all(
          [
            bar.getByLabel("File type"),
            bar.getByLabel("Choose a file"),
            bar.getByRole("button", { name: "Upload" }),
          ].map(async (control) => {
            const controlBox = (await control.boundingBox())!;
            return controlBox.y + controlBox.height / 2;
          }),
        );
        expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(12);
      }
      await bar
        .getByLabel("Choose a file")
        .setInputFiles({ name: "Bar.png", mimeType: "image/png", buffer: PNG_BYTES });
      await bar.getByRole("button", { name: "Upload", exact: true }).click();
      await expect(page.locator(".Toastify__toast").filter({ hasText: "Upload successful" })).toBeVisible();
      await expect(items(page).filter({ hasText: "Bar.png" })).toHaveCount(1);
    });

    test("filters apply as they change, the focus staying in the field; no Apply with JavaScript", async ({ page }) => {
      await signUpAndLogIn(page, "library-live");
      for (const name of ["Beach.png", "Dunes.png", "Pier.png"]) await savePhoto(page, name);
      await speak(page, PROMPT);
      await page.goto("/library");
      await expect(items(page)).toHaveCount(4);
      await expect(page.getByRole("button", { name: "Apply" })).toHaveCount(0);

      await page.getByLabel("Kind").selectOption("speech");
      await expect(page).toHaveURL(/kind=speech/);
      expect(await titles(page)).toEqual([PROMPT]);
      await page.getByLabel("Kind").selectOption("");

      const search = page.getByLabel("Search");
      await search.click();
      await search.pressSequentially("dun", { delay: 40 });
      await expect(page).toHaveURL(/q=dun/);
      await expect.poll(() => titles(page)).toEqual(["Dunes.png"]);
      // Still typing where they were: the field keeps the focus and what was typed.
      await expect(search).toBeFocused();
      await search.press("End");
      await search.press("Backspace");
      await search.press("Backspace");
      await search.press("Backspace");
      await expect(page).not.toHaveURL(/q=dun/);
      await expect(items(page)).toHaveCount(4);
      await expect(search).toBeFocused();

      await page.getByLabel("Sort").selectOption("date");
      await expect(page).toHaveURL(/sort=date/);
      await expect.poll(() => titles(page)).toEqual(["Beach.png", "Dunes.png", "Pier.png", PROMPT]);
    });

    test("attaching keeps the page where it is and says so on the card", async ({ page }) => {
      await signUpAndLogIn(page, "library-attach-stay");
      const projectId = await project(page, "Trip film");
      for (let index = 1; index <= 12; index++) await savePhoto(page, `Shot ${index}.png`);
      await page.goto("/library?sort=date");
      await expect(items(page)).toHaveCount(12);
      // Hydrated (Apply goes): Attach posts through its fetcher.
      await expect(page.getByRole("button", { name: "Apply" })).toHaveCount(0);
      const last = items(page).filter({ hasText: "Shot 12.png" });
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await last.locator(".library-attach > summary").click();
      const before = await page.evaluate(() => window.scrollY);
      expect(before).toBeGreaterThan(100);
      await last.getByLabel("Project for Shot 12.png").selectOption({ label: "Trip film" });
      await last.getByRole("button", { name: "Attach", exact: true }).click();
      const status = last.getByTestId("card-status");
      await expect(status).toHaveText("Attached to Trip film");
      await expect(status).toHaveAttribute("aria-live", "polite");
      expect(Math.abs((await page.evaluate(() => window.scrollY)) - before)).toBeLessThanOrEqual(2);
      await expect(status).toBeInViewport();
      await expect
        .poll(async () => (await (await page.request.get(`/api/project/${projectId}`)).json()).image_file)
        .toBe("Shot 12.png");
      // The chooser closed; the focus is back on its summary.
      await expect(last.getByLabel("Project for Shot 12.png")).toBeHidden();
      await expect(last.locator(".library-attach > summary")).toBeFocused();
    });

    test("titles are the prompt or the person's name; machine names and ids under Details", async ({ page }) => {
      await signUpAndLogIn(page, "library-titles");
      const photo = await savePhoto(page, "Beach day.png");
      const spoken = await speak(page, PROMPT);
      expect(spoken.name).toMatch(/^speech-.*\.(wav|mp3)$/);
      await page.goto("/library");

      const generated = items(page).filter({ has: page.getByRole("heading", { name: PROMPT, exact: true }) });
      await expect(generated).toHaveCount(1);
      const details = generated.getByTestId("file-details");
      // The machine name and the id wait, closed, under Details.
      await expect(generated.getByText(spoken.name, { exact: true })).toBeHidden();
      await expect(generated.getByText(spoken.id, { exact: true })).toBeHidden();
      await details.getByText("Details", { exact: true }).click();
      await expect(generated.getByText(spoken.name, { exact: true })).toBeVisible();
      await expect(generated.getByText(spoken.id, { exact: true })).toBeVisible();

      const uploaded = items(page).filter({ has: page.getByRole("heading", { name: "Beach day.png", exact: true }) });
      await expect(uploaded).toHaveCount(1);
      await expect(uploaded.getByText(photo.id, { exact: true })).toBeHidden();
      await uploaded.getByText("Details", { exact: true }).click();
      await expect(uploaded.getByText(photo.id, { exact: true })).toBeVisible();

      // Renamed, a generated file is titled by the person's name for it.
      const renamed = await page.request.patch(`/api/library/${spoken.id}`, { data: { name: "Harbour intro" } });
      expect(renamed.status()).toBe(200);
      await page.reload();
      await expect(page.getByRole("heading", { name: /^Harbour intro/ })).toHaveCount(1);
      await expect(page.getByRole("heading", { name: PROMPT, exact: true })).toHaveCount(0);
    });

    test("each card's actions sit on one row, all of a height", async ({ page }) => {
      await signUpAndLogIn(page, "library-row");
      await project(page, "Trip film");
      await savePhoto(page, "A photo with a rather long name for its card.png");
      await speak(page, PROMPT);
      await page.goto("/library");
      await expect(items(page)).toHaveCount(2);
      for (const item of await items(page).all()) {
        const boxes = await actionBoxes(item);
        // Download, Rename, (Use as a sketch,) Delete, Attach.
        expect(boxes.length).toBeGreaterThanOrEqual(4);
        expect(new Set(boxes.map((box) => box.top)).size, JSON.stringify(boxes)).toBe(1);
        expect(new Set(boxes.map((box) => box.height)).size, JSON.stringify(boxes)).toBe(1);
        // Inside the card.
        const card = (await item.boundingBox())!;
        const row = (await item.locator(".library-actions").boundingBox())!;
        expect(row.x + row.width).toBeLessThanOrEqual(card.x + card.width);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    });
  });
}

test.describe("the library without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });

  test("the compact bar uploads, Apply filters, Details open, and attaching is a plain form", async ({ page }) => {
    await signUpAndLogIn(page, "library-first-nojs");
    const projectId = await project(page, "Trip film");
    await savePhoto(page, "Beach.png");
    await page.goto("/library");
    const bar = page.getByRole("region", { name: "Upload a file" });
    expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(110);
    await bar
      .getByLabel("Choose a file")
      .setInputFiles({ name: "Plain.png", mimeType: "image/png", buffer: PNG_BYTES });
    await bar.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "✅ Upload successful!" })).toBeVisible();
    expect(await titles(page)).toEqual(["Plain.png", "Beach.png"]);

    // Changing a filter does nothing by itself here: Apply sends it.
    await page.getByLabel("Search").fill("beach");
    await expect(page).not.toHaveURL(/q=beach/);
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/q=beach/);
    expect(await titles(page)).toEqual(["Beach.png"]);

    const beach = items(page).first();
    await beach.getByText("Details", { exact: true }).click();
    await expect(beach.getByTestId("provenance")).toBeVisible();
    await beach.locator(".library-attach > summary").click();
    await beach.getByLabel("Project for Beach.png").selectOption({ label: "Trip film" });
    await beach.getByRole("button", { name: "Attach", exact: true }).click();
    await expect(page.getByText("Attached to Trip film").first()).toBeVisible();
    expect((await (await page.request.get(`/api/project/${projectId}`)).json()).image_file).toBe("Beach.png");
  });
});
