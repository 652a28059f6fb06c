import { expect, test } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

// A valid 1x1 PNG: what the stock-photo service answers in these tests (no network here).
const ONE_PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const STOCK = "https://loremflickr.com/**";

test("image generator: with no image model, the stock photo for the prompt after 2 s, shown as an image beside its link", async ({
  page,
}) => {
  await signUpAndLogIn(page, "image");
  const external: string[] = [];
  page.on("request", (request) => {
    const { protocol, hostname } = new URL(request.url());
    if (protocol !== "data:" && hostname !== "localhost") external.push(request.url());
  });
  // The photo comes from LoremFlickr (the CSP's img-src allows that origin): answered here by the test.
  await page.route(STOCK, (route) => route.fulfill({ status: 200, contentType: "image/png", body: ONE_PIXEL_PNG }));
  await page.goto("/image");
  await expect(page.getByTestId("offline-badge")).toHaveText("Placeholder");

  await page.getByRole("button", { name: "Generate Image" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please enter a prompt.");

  await page.getByLabel("Prompt").fill("red fox in snow");
  const clicked = Date.now();
  await page.getByRole("button", { name: "Generate Image" }).click();
  await expect(page.getByRole("alert")).toHaveCount(0);
  const link = page.getByTestId("stock-photo-link");
  await expect(link).toBeVisible({ timeout: 5000 });
  const waited = Date.now() - clicked;
  expect(waited).toBeGreaterThanOrEqual(1900);
  expect(waited).toBeLessThan(4500);
  // A live keyword search at 800x600 made of the prompt's meaningful words.
  await expect(link).toHaveAttribute("href", "https://loremflickr.com/800/600/red,fox,snow");
  await expect(link).toHaveText("https://loremflickr.com/800/600/red,fox,snow");
  await expect(page.getByText("Stock photo (800x600) for your prompt:")).toBeVisible();
  // The image itself, loaded (the CSP let it through), named by the prompt, without a referrer.
  const image = page.getByRole("img", { name: "Stock photo matching “red fox in snow”" });
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute("src", "https://loremflickr.com/800/600/red,fox,snow");
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(1);
  await expect(page.getByTestId("image-not-loaded")).toHaveCount(0);
  // Only the photo came from another site; nothing else did.
  expect(external).toEqual(["https://loremflickr.com/800/600/red,fox,snow"]);
});

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test(`image generator at ${viewport.width}px: a stock photo that cannot load is said in words, in a box of its own above the link`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "image-offline");
    // The stock photo fails to load: its request is cut off.
    await page.route(STOCK, (route) => route.abort("internetdisconnected"));
    await page.goto("/image");
    await page.getByLabel("Prompt").fill("quiet harbour with fishing boats and gulls at dawn");
    await page.getByRole("button", { name: "Generate Image" }).click();
    const note = page.getByTestId("image-not-loaded");
    await expect(note).toHaveText("The image could not be loaded here. The link below still leads to it.");
    await expect(page.getByTestId("result-image")).toBeHidden();
    const link = page.getByTestId("stock-photo-link");
    await expect(link).toHaveAttribute("href", "https://loremflickr.com/800/600/quiet,harbour,fishing,boats,gulls");

    // The note is a box of its own: above the caption and its link, overlapping neither, and its text
    // stays inside it (it used to run over its own lines and the link).
    const box = (await note.boundingBox())!;
    const caption = (await page.locator(".ai-stock-link").boundingBox())!;
    const linkBox = (await link.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(caption.y);
    expect(box.y + box.height).toBeLessThanOrEqual(linkBox.y);
    expect(await note.evaluate((element) => getComputedStyle(element).display)).toBe("block");
    const lines = await note.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const outer = element.getBoundingClientRect();
      return [...range.getClientRects()].every(
        (rect) => rect.top >= outer.top - 0.5 && rect.bottom <= outer.bottom + 0.5,
      );
    });
    expect(lines).toBe(true);
    // Nothing sideways either.
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  });
}

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("image generator: the form shows the message or the link in the page", async ({ page }) => {
    await signUpAndLogIn(page, "image-nojs");
    await page.route(STOCK, (route) => route.abort("internetdisconnected"));
    await page.goto("/image");
    await page.getByRole("button", { name: "Generate Image" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please enter a prompt.");
    await page.getByLabel("Prompt").fill("city at night");
    await page.getByRole("button", { name: "Generate Image" }).click();
    await expect(page.getByTestId("stock-photo-link")).toHaveAttribute(
      "href",
      "https://loremflickr.com/800/600/city,night",
    );
    // The image is in the page too, named by the prompt (unloaded here, the browser shows that name).
    await expect(page.getByRole("img", { name: "Stock photo matching “city at night”" })).toHaveAttribute(
      "src",
      "https://loremflickr.com/800/600/city,night",
    );
  });
});
