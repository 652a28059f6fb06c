import sharp from "sharp";
import { expect, test, type Browser, type Page } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";
import { answerAppDialog } from "../support/app-dialog";

/**
 * Share links from the screens (docs/screens.md#sharing, decision 0071): Share on a library card makes
 * a link with its QR code, a second, signed-out browser opens it and sees the picture; Revoke on
 * /account turns it off and that browser gets the 410. A content piece and a project share the same
 * way. With JavaScript in a dialog, without it as forms in the page; at both sizes.
 */
const GONE = "This link has expired or was turned off.";

async function savePicture(page: Page, name: string) {
  const buffer = await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .png()
    .toBuffer();
  const answer = await page.request.post("/api/library/upload", {
    multipart: { kind: "photo", file: { name, mimeType: "image/png", buffer } },
  });
  expect(answer.status()).toBe(201);
  return (await answer.json()) as { id: string; name: string };
}

/** A signed-out browser (its own context: no cookie of the sharer's) opens the link and sees the picture. */
async function openSignedOut(browser: Browser, url: string, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled });
  const visitor = await context.newPage();
  const response = await visitor.goto(url);
  expect(response?.status()).toBe(200);
  const picture = visitor.locator("img.shared-image");
  await expect(picture).toBeVisible();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(96);
  await expect(visitor.getByRole("link", { name: /Download/ })).toBeVisible();
  return { context, visitor };
}

async function expectGone(visitor: Page, url: string) {
  const response = await visitor.goto(url);
  expect(response?.status()).toBe(410);
  await expect(visitor.getByText(GONE)).toBeVisible();
  await expect(visitor.locator("img.shared-image")).toHaveCount(0);
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
]) {
  const size = `${viewport.width}×${viewport.height}`;

  test.describe(`sharing with JavaScript (${size})`, () => {
    test.use({ viewport });

    test("share a picture in a dialog, copy the link, open it signed out, revoke it on /account", async ({
      page,
      browser,
      browserName,
      context,
    }) => {
      test.setTimeout(120_000);
      await signUpAndLogIn(page, "share-js");
      await savePicture(page, "Harbour.png");
      await page.goto("/library");
      const card = page.getByTestId("library-item").first();
      const share = card.getByTestId("share-control");
      await share.click();

      const dialog = page.getByRole("dialog", { name: /^Share “Harbour/ });
      await expect(dialog).toBeVisible();
      const expiry = dialog.getByLabel("Link expires after");
      await expect(expiry).toBeFocused();
      await expect(expiry).toHaveValue("168");
      await expect(expiry.locator("option")).toHaveText(["1 hour", "1 day", "7 days", "30 days", "Never"]);
      await dialog.getByLabel("Maximum views").fill("5");
      await dialog.getByRole("button", { name: "Create link" }).click();

      const field = dialog.getByTestId("share-url");
      await expect(field).toHaveValue(/^https?:\/\/[^/]+\/s\/[\w-]{22,}$/);
      const url = await field.inputValue();
      await expect(dialog.getByRole("img", { name: /QR code of the link to “Harbour/ })).toBeVisible();
      await expect(dialog.getByText("0 / 5 views")).toBeVisible();
      await expect(page.getByText("🔗 Link created")).toBeVisible();

      if (browserName === "chromium") await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await dialog.getByRole("button", { name: "Copy link" }).click();
      await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
      if (browserName === "chromium") expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

      // Escape closes the dialog; the focus returns to Share.
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(share).toBeFocused();

      const { context: signedOut, visitor } = await openSignedOut(browser, url, true);

      await page.goto("/account");
      const section = page.getByRole("region", { name: "Shared links" });
      const row = section.getByTestId("shared-link");
      await expect(row).toHaveCount(1);
      await expect(row).toContainText("Harbour");
      await expect(row).toContainText("File");
      await expect(row).toContainText("1 / 5 views");
      await expect(row).toContainText(/Expires [A-Z][a-z]{2} \d{1,2}, \d{4}/);
      await expect(row.getByTestId("share-url")).toHaveValue(url);
      await row.getByRole("button", { name: /^Revoke the link to Harbour/ }).click();
      await answerAppDialog(page, /^Revoke the link to “Harbour/, "Revoke");
      await expect(page.getByText("🔗 Link revoked")).toBeVisible();
      await expect(section.getByText("No shared links yet.")).toBeVisible();

      await expectGone(visitor, url);
      await signedOut.close();
    });
  });

  test.describe(`sharing without JavaScript (${size})`, () => {
    test.use({ viewport, javaScriptEnabled: false });

    test("share a picture as forms, open it signed out, revoke it on /account", async ({ page, browser }) => {
      test.setTimeout(120_000);
      await signUpAndLogIn(page, "share-nojs");
      const file = await savePicture(page, "Lighthouse.png");
      await page.goto("/library");
      await page.getByTestId("library-item").first().getByTestId("share-control").click();
      await expect(page).toHaveURL(new RegExp(`/library\\?share=${file.id}$`));

      const panel = page.getByRole("region", { name: /^Share “Lighthouse/ });
      await expect(panel.getByLabel("Link expires after")).toHaveValue("168");
      await panel.getByLabel("Link expires after").selectOption({ label: "1 day" });
      await panel.getByRole("button", { name: "Create link" }).click();
      await expect(page).toHaveURL(new RegExp(`/library\\?share=${file.id}&shared=[\\w-]+$`));

      const shown = page.getByRole("region", { name: /^Share “Lighthouse/ });
      const url = await shown.getByTestId("share-url").inputValue();
      expect(url).toMatch(/\/s\/[\w-]{22,}$/);
      await expect(shown.getByRole("img", { name: /QR code of the link to “Lighthouse/ })).toBeVisible();
      await expect(shown.getByText("0 views")).toBeVisible();
      await expect(shown.getByRole("button", { name: "Copy link" })).toHaveCount(0);

      const { context: signedOut, visitor } = await openSignedOut(browser, url, false);

      await page.goto("/account");
      const row = page.getByRole("region", { name: "Shared links" }).getByTestId("shared-link");
      await expect(row).toContainText("1 view");
      await row.getByRole("button", { name: /^Revoke the link to Lighthouse/ }).click();
      const question = page.getByRole("alertdialog", { name: /^Revoke the link to “Lighthouse/ });
      await expect(question).toBeVisible();
      await question.getByRole("button", { name: "Revoke" }).click();
      await expect(page).toHaveURL(/\/account$/);
      await expect(page.getByText("No shared links yet.")).toBeVisible();

      await expectGone(visitor, url);
      await signedOut.close();
    });
  });
}

test.describe("sharing a content piece and a project", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("from the content view and a project card, in their dialogs", async ({ page, browser }) => {
    test.setTimeout(120_000);
    await signUpAndLogIn(page, "share-more");
    const content = await page.request.post("/api/content", { data: { title: "Field notes", body: "Rain at noon." } });
    const project = await page.request.post("/api/project/create", { data: { title: "Summer film" } });
    expect(content.status()).toBe(201);
    expect(project.status()).toBe(201);

    const links: string[] = [];
    await page.goto(`/content/${(await content.json()).id}`);
    await page.getByRole("link", { name: "Share Field notes" }).click();
    const contentDialog = page.getByRole("dialog", { name: "Share “Field notes”" });
    await contentDialog.getByLabel("Link expires after").selectOption({ label: "Never" });
    await contentDialog.getByRole("button", { name: "Create link" }).click();
    await expect(contentDialog.getByText("Never expires")).toBeVisible();
    links.push(await contentDialog.getByTestId("share-url").inputValue());
    await contentDialog.getByRole("button", { name: "Close" }).click();
    await expect(contentDialog).toBeHidden();

    await page.goto("/projects");
    await page.getByRole("link", { name: "Share Summer film" }).click();
    const projectDialog = page.getByRole("dialog", { name: "Share “Summer film”" });
    await projectDialog.getByRole("button", { name: "Create link" }).click();
    await expect(projectDialog.getByTestId("share-url")).toHaveValue(/\/s\//);
    links.push(await projectDialog.getByTestId("share-url").inputValue());

    const context = await browser.newContext();
    const visitor = await context.newPage();
    for (const [url, text] of [
      [links[0], "Rain at noon."],
      [links[1], "Summer film"],
    ]) {
      expect((await visitor.goto(url))?.status()).toBe(200);
      await expect(visitor.getByText(text).first()).toBeVisible();
    }
    await context.close();

    await page.goto("/account");
    const rows = page.getByRole("region", { name: "Shared links" }).getByTestId("shared-link");
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText("Summer film");
    await expect(rows.first()).toContainText("Project");
    await expect(rows.nth(1)).toContainText("Field notes");
    await expect(rows.nth(1)).toContainText("Never expires");
  });
});
