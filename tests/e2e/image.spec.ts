import { expect, test } from "@playwright/test";
import { signUpAndLogIn } from "./helpers";

test("image generator: with no image model, a stock-photo link from the prompt after 2 s, never fetched", async ({ page }) => {
  await signUpAndLogIn(page, "image");
  const external: string[] = [];
  page.on("request", (request) => {
    const { protocol, hostname } = new URL(request.url());
    if (protocol !== "data:" && hostname !== "localhost") external.push(request.url());
  });
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
  // A link, not an image: nothing was fetched from another site.
  await expect(page.locator("img")).toHaveCount(0);
  expect(external).toEqual([]);
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("image generator: the form shows the message or the link in the page", async ({ page }) => {
    await signUpAndLogIn(page, "image-nojs");
    await page.goto("/image");
    await page.getByRole("button", { name: "Generate Image" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please enter a prompt.");
    await page.getByLabel("Prompt").fill("city at night");
    await page.getByRole("button", { name: "Generate Image" }).click();
    await expect(page.getByTestId("stock-photo-link")).toHaveAttribute("href", "https://loremflickr.com/800/600/city,night");
  });
});
