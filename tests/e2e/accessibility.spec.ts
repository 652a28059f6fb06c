import {
  checkScreen,
  everyLook,
  LAPTOP,
  PHONE,
  SIGNED_IN_SCREENS,
  test,
  THEMES,
  VISITOR_SCREENS,
} from "../support/e2e-accessibility";

/**
 * Every screen, in both themes, at 1280x900 and 375x667: axe-core reports no violation of WCAG 2.0,
 * 2.1 and 2.2 A/AA or of its best practices, and nothing scrolls sideways. One signed-in person per
 * worker, with a little of everything (a content item, a project, a voice clip, a video, a generated
 * video), so the lists and item pages are checked with something in them. Each test checks one screen four ways.
 * The screens and the check are shared with accessibility-languages.spec.ts (German and Arabic):
 * tests/support/e2e-accessibility.ts.
 */

const LOOKS = everyLook(THEMES, [LAPTOP, PHONE]);

test.describe.configure({ mode: "parallel" });

test.describe("visitors", () => {
  for (const url of VISITOR_SCREENS) {
    test(`${url} has no axe violation and does not scroll sideways`, async ({ page }) => {
      await checkScreen(page, url, { looks: LOOKS });
    });
  }
});

test.describe("signed in", () => {
  for (const { name, url, ready, slow } of SIGNED_IN_SCREENS) {
    test(`${name} has no axe violation and does not scroll sideways`, async ({ signedIn, account }) => {
      // The dashboard raises a toast on each of its four visits and waits for it: more time on a busy machine.
      if (slow) test.slow();
      await checkScreen(signedIn, url(account), { ready, looks: LOOKS });
    });
  }
});
