import { describe, expect, it } from "vitest";
import { formatBytes } from "~/common/bytes";

/** Sizes read as the limits are stated ("up to 25 MiB"): binary units, one decimal only when it is needed. */
describe("formatBytes", () => {
  it("says whole sizes without a decimal, in the largest unit that fits", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(4 * 1024)).toBe("4 KiB");
    expect(formatBytes(25 * 1024 * 1024)).toBe("25 MiB");
    expect(formatBytes(2 * 1024 ** 3)).toBe("2 GiB");
  });

  it("gives other sizes one decimal", () => {
    expect(formatBytes(1.5 * 1024 * 1024)).toBe("1.5 MiB");
    expect(formatBytes(1_045_100)).toBe("1020.6 KiB");
  });
});
