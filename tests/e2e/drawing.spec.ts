import { expect, test, type Page } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

/** The canvas pixel at (x, y) in canvas coordinates. */
const pixel = (page: Page, x: number, y: number) =>
  page
    .getByLabel("Drawing canvas")
    .evaluate(
      (canvas: HTMLCanvasElement, [px, py]) => [...canvas.getContext("2d")!.getImageData(px, py, 1, 1).data],
      [x, y],
    );

const PAPER = [16, 20, 28];

/**
 * How many pixels of column `x` around row `centre` (a run through it) are painted in `colour` on a
 * `ground` colour, counting a blended edge pixel as `colour` when it is nearer it than the ground.
 */
const runAcross = (page: Page, x: number, centre: number, colour: number[], ground: number[]) =>
  page.getByLabel("Drawing canvas").evaluate(
    (canvas: HTMLCanvasElement, [px, py, inkColour, groundColour]) => {
      const data = canvas.getContext("2d")!.getImageData(px, 0, 1, canvas.height).data;
      const distance = (y: number, colour: number[]) =>
        Math.hypot(...colour.map((value, i) => data[y * 4 + i] - value));
      const isInk = (y: number) => y >= 0 && y < canvas.height && distance(y, inkColour) < distance(y, groundColour);
      if (!isInk(py)) return 0;
      let top = py;
      let bottom = py;
      while (isInk(top - 1)) top--;
      while (isInk(bottom + 1)) bottom++;
      return bottom - top + 1;
    },
    [x, centre, colour, ground] as const,
  );

async function stroke(page: Page, points: [number, number][]) {
  const box = (await page.getByLabel("Drawing canvas").boundingBox())!;
  const scale = box.width / 800;
  const [first, ...rest] = points;
  await page.mouse.move(box.x + first[0] * scale, box.y + first[1] * scale);
  await page.mouse.down();
  for (const [x, y] of rest) await page.mouse.move(box.x + x * scale, box.y + y * scale, { steps: 8 });
  await page.mouse.up();
}

test("drawing pad: draw, erase, save, and generate in two styles that differ", async ({ page }) => {
  await signUpAndLogIn(page, "drawing");
  await page.goto("/drawing");
  await expect(page.getByRole("heading", { name: /Drawing Pad/ })).toBeVisible();
  await expect(page.getByLabel("Colour")).toHaveValue("#ffff00");
  await expect(page.getByRole("slider", { name: "Brush size" })).toHaveValue("5");
  await expect(page.getByLabel("Style")).toHaveValue("realistic");
  await expect(page.getByLabel("Style").locator("option")).toHaveText([
    "Realistic",
    "Cartoon",
    "Futuristic",
    "Painting",
    "Concept",
  ]);
  await expect(page.getByLabel("Drawing canvas")).toHaveCSS("touch-action", "none");
  await expect(page.getByRole("link", { name: "Back" })).toHaveAttribute("href", "/dashboard");

  // Mouse strokes in the default yellow.
  await page.getByRole("slider", { name: "Brush size" }).fill("12");
  await stroke(page, [
    [100, 100],
    [400, 250],
    [700, 120],
  ]);
  await stroke(page, [
    [150, 400],
    [650, 420],
  ]);
  expect(await pixel(page, 400, 250)).toEqual([255, 255, 0, 255]);

  // Pen and touch through Pointer Events.
  await page.getByLabel("Colour").fill("#00ffff");
  const canvas = page.getByLabel("Drawing canvas");
  const box = (await canvas.boundingBox())!;
  const at = (x: number, y: number) => ({
    clientX: box.x + (x * box.width) / 800,
    clientY: box.y + (y * box.height) / 500,
  });
  for (const [pointerType, y] of [
    ["pen", 300],
    ["touch", 330],
  ] as const) {
    await canvas.dispatchEvent("pointerdown", {
      pointerId: 7,
      pointerType,
      isPrimary: true,
      button: 0,
      buttons: 1,
      ...at(200, y),
    });
    await canvas.dispatchEvent("pointermove", {
      pointerId: 7,
      pointerType,
      isPrimary: true,
      buttons: 1,
      ...at(600, y),
    });
    await canvas.dispatchEvent("pointerup", { pointerId: 7, pointerType, isPrimary: true, button: 0, ...at(600, y) });
    expect(await pixel(page, 400, y)).toEqual([0, 255, 255, 255]);
  }

  // Erase: 1.5 times the brush, in the paper colour. Measured across the strokes in a clear strip at the
  // top: a wide cyan band to erase through, and a line drawn with the same brush for comparison.
  const brush = page.getByRole("slider", { name: "Brush size" });
  await brush.fill("30");
  for (const y of [20, 40, 60])
    await stroke(page, [
      [450, y],
      [780, y],
    ]);
  await brush.fill("16");
  await stroke(page, [
    [60, 30],
    [330, 30],
  ]);
  const cyan = [0, 255, 255];
  const drawnWidth = await runAcross(page, 200, 30, cyan, PAPER);
  expect(drawnWidth).toBeGreaterThanOrEqual(15);
  expect(drawnWidth).toBeLessThanOrEqual(17);
  expect(await runAcross(page, 600, 40, cyan, PAPER)).toBeGreaterThan(50);

  await page.getByRole("button", { name: "Erase" }).click();
  await expect(page.getByRole("button", { name: "Erase" })).toHaveAttribute("aria-pressed", "true");
  await stroke(page, [
    [470, 40],
    [760, 40],
  ]);
  expect(await pixel(page, 600, 40)).toEqual([...PAPER, 255]);
  const erasedWidth = await runAcross(page, 600, 40, PAPER, cyan);
  // 1.5 x 16 = 24 (a plain brush-wide eraser would clear about 16).
  expect(
    Math.abs(erasedWidth - drawnWidth * 1.5),
    `erased ${erasedWidth}px across, drawn ${drawnWidth}px`,
  ).toBeLessThanOrEqual(3);
  await page.getByRole("button", { name: "Draw" }).click();

  // Save Sketch downloads a PNG.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Save Sketch" }).click();
  expect((await download).suggestedFilename()).toMatch(/^sketch-.*\.png$/);

  // Generate in two styles.
  const results: Buffer[] = [];
  for (const style of ["cartoon", "futuristic"]) {
    await page.getByLabel("Style").selectOption(style);
    const answer = page.waitForResponse((response) => response.url().includes("/api/ai/sketch2image"));
    await page.getByRole("button", { name: "Generate AI Image" }).click();
    const response = await answer;
    expect(response.status()).toBe(201);
    expect(JSON.parse(response.request().postData()!)).toMatchObject({
      style,
      image_data: expect.stringMatching(/^data:image\/png;base64,/),
    });
    const image = page.getByTestId("sketch-result");
    await expect(image).toHaveAttribute("alt", `Your sketch in the ${style} style`);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(800);
    const src = (await image.getAttribute("src"))!;
    await expect(page.getByRole("link", { name: "Download Image" })).toHaveAttribute("download", `sketch-${style}.png`);
    const file = await page.request.get(src);
    expect(file.headers()["content-type"]).toBe("image/png");
    results.push(await file.body());
  }
  expect(results[0].equals(results[1])).toBe(false);

  // Clear paints the paper again.
  await page.getByRole("button", { name: "Clear" }).click();
  expect(await pixel(page, 400, 250)).toEqual([16, 20, 28, 255]);
});

test("drawing pad: 'AI generation failed. Please try again.' on failure and when no image comes back", async ({
  page,
}) => {
  await signUpAndLogIn(page, "drawing-fail");
  await page.goto("/drawing");
  await stroke(page, [
    [100, 100],
    [300, 300],
  ]);
  await page.route("**/api/ai/sketch2image", (route) =>
    route.fulfill({ status: 502, json: { detail: "AI generation failed. Please try again." } }),
  );
  await page.getByRole("button", { name: "Generate AI Image" }).click();
  await expect(page.getByRole("alert")).toHaveText("AI generation failed. Please try again.");
  await page.unroute("**/api/ai/sketch2image");
  await page.route("**/api/ai/sketch2image", (route) => route.fulfill({ status: 200, json: {} }));
  await page.getByRole("button", { name: "Generate AI Image" }).click();
  await expect(page.getByRole("alert")).toHaveText("AI generation failed. Please try again.");
  await expect(page.getByTestId("sketch-result")).toHaveCount(0);
});

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test(`drawing pad: Generate on an empty canvas says 'Draw something first' and sends nothing at ${viewport.width}x${viewport.height}`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "drawing-empty");
    await page.goto("/drawing");
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/ai/sketch2image")) sent.push(request.url());
    });
    const generate = page.getByRole("button", { name: "Generate AI Image" });
    const result = page.getByRole("region", { name: "AI result" });

    await generate.click();
    await expect(result.getByRole("alert")).toHaveText("Draw something first");

    // Drawn, then all cleared away: empty again.
    await stroke(page, [
      [100, 100],
      [300, 300],
    ]);
    await page.getByRole("button", { name: "Clear" }).click();
    await generate.click();
    await expect(result.getByRole("alert")).toHaveText("Draw something first");
    // Drawn, then erased over with a wide eraser: empty again.
    await page.getByRole("slider", { name: "Brush size" }).fill("5");
    await stroke(page, [
      [200, 200],
      [260, 200],
    ]);
    await page.getByRole("slider", { name: "Brush size" }).fill("30");
    await page.getByRole("button", { name: "Erase" }).click();
    await stroke(page, [
      [180, 200],
      [280, 200],
    ]);
    await generate.click();
    await expect(result.getByRole("alert")).toHaveText("Draw something first");
    expect(sent).toEqual([]);

    // Something drawn: it is sent, and the note goes.
    await page.getByRole("button", { name: "Draw" }).click();
    await stroke(page, [
      [400, 250],
      [500, 300],
    ]);
    const answer = page.waitForResponse((response) => response.url().includes("/api/ai/sketch2image"));
    await generate.click();
    expect((await answer).status()).toBe(201);
    await expect(page.getByTestId("sketch-result")).toBeVisible();
    await expect(result.getByRole("alert")).toHaveCount(0);
    expect(sent).toHaveLength(1);
  });
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test(`drawing pad at ${viewport.width}px: the Colour, Brush size and Style labels sit on one line with each other`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "drawing-labels");
    await page.goto("/drawing");
    const toolbar = page.getByRole("toolbar", { name: "Drawing tools" });
    await expect(toolbar).toBeVisible();
    // Each label's own words (its first child: the text, or the words and the number), and the row its whole box is on.
    const labels = await toolbar.locator("label").evaluateAll((elements) =>
      elements.map((label) => {
        const range = document.createRange();
        range.selectNodeContents(label.firstChild!);
        const text = range.getBoundingClientRect();
        const box = label.getBoundingClientRect();
        return {
          name: label.firstChild!.textContent!.trim(),
          textTop: text.top,
          boxTop: box.top,
          boxBottom: box.bottom,
        };
      }),
    );
    expect(labels.map((label) => label.name)).toEqual(["Colour", "Brush size 5", "Style"]);
    // Labels on one row of the toolbar (their boxes overlap) have their words at one height.
    const pairs = labels
      .flatMap((a, i) => labels.slice(i + 1).map((b) => [a, b] as const))
      .filter(([a, b]) => a.boxTop < b.boxBottom && b.boxTop < a.boxBottom);
    if (viewport.width >= 1280) expect(pairs).toHaveLength(3);
    expect(pairs.length).toBeGreaterThan(0);
    for (const [a, b] of pairs)
      expect(
        Math.abs(a.textTop - b.textTop),
        `${a.name} at ${a.textTop}, ${b.name} at ${b.textTop}`,
      ).toBeLessThanOrEqual(1);
  });
}
