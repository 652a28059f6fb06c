import { expect, test } from "@playwright/test";
import { signUpAndLogIn } from "./helpers";

// A valid 1x1 PNG: what the stock-photo service answers in these tests (no network here).
const ONE_PIXEL_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const STOCK = "https://loremflickr.com/**";

test("image generator: with no image model, the stock photo for the prompt after 2 s, shown as an image beside its link", async ({ page }) => {
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

test("image generator: a stock photo that cannot load is said in words; the link stays", async ({ page }) => {
  await signUpAndLogIn(page, "image-offline");
  await page.route(STOCK, (route) => route.abort("internetdisconnected"));
  await page.goto("/image");
  await page.getByLabel("Prompt").fill("quiet harbour");
  await page.getByRole("button", { name: "Generate Image" }).click();
  await expect(page.getByTestId("image-not-loaded")).toHaveText("The image could not be loaded here. The link beside it still leads to it.");
  await expect(page.getByTestId("result-image")).toBeHidden();
  await expect(page.getByTestId("stock-photo-link")).toHaveAttribute("href", "https://loremflickr.com/800/600/quiet,harbour");
});

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
    await expect(page.getByTestId("stock-photo-link")).toHaveAttribute("href", "https://loremflickr.com/800/600/city,night");
    // The image is in the page too, named by the prompt (unloaded here, the browser shows that name).
    await expect(page.getByRole("img", { name: "Stock photo matching “city at night”" })).toHaveAttribute(
      "src",
      "https://loremflickr.com/800/600/city,night",
    );
  });
});
