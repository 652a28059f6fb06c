import type { Language } from "../../app/common/i18n/languages";
import { expect, type Locator } from "../support/e2e-test";
import {
  checkScreen,
  everyLook,
  LAPTOP,
  PHONE,
  SIGNED_IN_SCREENS,
  test,
  textsOf,
  THEMES,
  VISITOR_SCREENS,
  type Look,
} from "../support/e2e-accessibility";

/**
 * accessibility.spec.ts's screens in German (longer words) and Arabic (right to left), with the same
 * rule set and the same worker's person: no axe violation, nothing scrolling sideways. Both themes at
 * 1280x900 (English covers the phone's layout in both); Arabic, whose layout is mirrored, at 375x667
 * too, in the dark theme (a third more time for the phone, where a second theme would add half).
 * The language comes from the browser (Accept-Language): the person has saved none, so it holds signed
 * in too, and each check makes sure the page says it (lang, dir).
 */

const LANGUAGES: Array<{ language: Language; looks: Look[] }> = [
  { language: "de", looks: everyLook(THEMES, [LAPTOP]) },
  { language: "ar", looks: [...everyLook(["dark"], [LAPTOP, PHONE]), ...everyLook(["light"], [LAPTOP])] },
];

test.describe.configure({ mode: "parallel" });

for (const { language, looks } of LANGUAGES) {
  test.describe(language, () => {
    // Chromium's own Accept-Language (from the locale) replaces an extra header's on navigations: both say it.
    test.use({ locale: language, extraHTTPHeaders: { "Accept-Language": language } });

    test.describe("visitors", () => {
      for (const url of VISITOR_SCREENS) {
        test(`${url} has no axe violation and does not scroll sideways`, async ({ page }) => {
          await checkScreen(page, url, { looks, language });
        });
      }
    });

    test.describe("signed in", () => {
      for (const { name, url, ready, slow } of SIGNED_IN_SCREENS) {
        test(`${name} has no axe violation and does not scroll sideways`, async ({ signedIn, account }) => {
          if (slow) test.slow();
          await checkScreen(signedIn, url(account), { ready, looks, language });
        });
      }
    });
  });
}

/** The arrow a link's text holds, and on which side of the link it is drawn. */
function arrowOf(link: Locator) {
  return link.evaluate((link) => {
    const walker = document.createTreeWalker(link, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.search(/[←→]/);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + 1);
      const arrow = range.getBoundingClientRect();
      const box = link.getBoundingClientRect();
      const middle = (rect: DOMRect) => rect.left + rect.width / 2;
      return { arrow: node.textContent![at], side: middle(arrow) < middle(box) ? "left" : "right" };
    }
    return null;
  });
}

test.describe("arrows in text", () => {
  // Forward is the way the page reads, back the other way: in Arabic "→" and "←" are swapped in the
  // catalogue (Unicode does not mirror arrows), so forward points left and sits at the sentence's end, on the left.
  const expected = {
    de: { forward: { arrow: "→", side: "right" }, back: { arrow: "←", side: "left" } },
    ar: { forward: { arrow: "←", side: "left" }, back: { arrow: "→", side: "right" } },
  };
  for (const language of ["de", "ar"] as const) {
    test.describe(language, () => {
      test.use({ locale: language, extraHTTPHeaders: { "Accept-Language": language } });

      test(`point the way the page reads in ${language}`, async ({ signedIn }) => {
        const t = textsOf(language);
        await signedIn.setViewportSize(LAPTOP);
        await signedIn.goto("/camera");
        const tryV2 = signedIn.getByRole("link", { name: t("Try Camera V2 →") });
        await expect(tryV2).toBeVisible();
        expect(await arrowOf(tryV2), "Try Camera V2").toEqual(expected[language].forward);
        await signedIn.goto("/feedback");
        const home = signedIn.getByRole("link", { name: t("← Home") });
        await expect(home).toBeVisible();
        expect(await arrowOf(home), "Home").toEqual(expected[language].back);
      });
    });
  }
});
