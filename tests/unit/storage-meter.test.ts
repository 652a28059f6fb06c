import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { StorageMeter, storageMeterNumbers } from "~/components/shell/storage-meter";

/** The storage meter (dashboard, library, Voices, Video Hub): files and text count together, and it says how much of each. */
const MiB = 1024 * 1024;

describe("storage meter", () => {
  it("splits what is used into files and text, and says the share of the quota", () => {
    expect(storageMeterNumbers({ usedBytes: 1.5 * MiB, quotaBytes: 3 * MiB, textBytes: 0.5 * MiB })).toEqual({
      percent: 50,
      mediaBytes: MiB,
      textBytes: 0.5 * MiB,
    });
    expect(storageMeterNumbers({ usedBytes: 300_000, quotaBytes: 3 * MiB, textBytes: 300_000 })).toEqual({
      percent: 10,
      mediaBytes: 0,
      textBytes: 300_000,
    });
    // Past the quota (a smaller quota set later) the share stops at 100.
    expect(storageMeterNumbers({ usedBytes: 4 * MiB, quotaBytes: 3 * MiB, textBytes: MiB })).toEqual({
      percent: 100,
      mediaBytes: 3 * MiB,
      textBytes: MiB,
    });
    // No quota known (a failed load): full, nothing negative.
    expect(storageMeterNumbers({ usedBytes: 0, quotaBytes: 0, textBytes: 0 })).toEqual({
      percent: 100,
      mediaBytes: 0,
      textBytes: 0,
    });
  });

  it("shows text beside files, and the meter's value is both together", () => {
    const html = renderToStaticMarkup(
      createElement(StorageMeter, { usage: { usedBytes: 1.5 * MiB, quotaBytes: 3 * MiB, textBytes: 0.5 * MiB } }),
    );
    expect(html).toContain(`value="${1.5 * MiB}"`);
    expect(html).toContain(`max="${3 * MiB}"`);
    expect(html.replace(/<!-- -->/g, "")).toContain("1.5 MiB of 3 MiB used (50%): files 1 MiB, text 512 KiB");
  });
});
