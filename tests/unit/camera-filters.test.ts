import { describe, expect, it } from "vitest";
import { advanceGlyphRain, coverCrop, createGlyphRain, glyphAt } from "~/browser/camera/filter-drawing";
import {
  applyPixelMap,
  CAMERA_DEFAULT_FILTER,
  CAMERA_FILTERS,
  CAMERA_V2_DEFAULT_FILTER,
  CAMERA_V2_FILTERS,
  FILTER_LABELS,
  FILTER_RECIPES,
  isCameraFilter,
  luma,
  mapPixelsThroughPalette,
  thermalPalette,
} from "~/browser/camera/camera-filters";
import { captureFilename, fileTimestamp } from "~/browser/download";
import { captureExtension, nextCaptureId } from "~/browser/camera/gallery-store";
import {
  CAMERA_VIDEO_FORMATS,
  containerType,
  formatElapsed,
  isPermissionError,
  pickRecordingFormat,
  VOICE_MEMO_FORMATS,
} from "~/browser/camera/recorder";

describe("camera filters (docs/screens.md#constants-and-limits)", () => {
  it("offers the ten filters; Camera V2 the first five plus none, matrix by default", () => {
    expect(CAMERA_FILTERS).toEqual([
      "matrix",
      "neon",
      "bw",
      "warm",
      "cyber",
      "infra",
      "dreamy",
      "vintage",
      "purple",
      "none",
    ]);
    expect(CAMERA_V2_FILTERS).toEqual(["matrix", "neon", "bw", "warm", "cyber", "none"]);
    expect(CAMERA_V2_DEFAULT_FILTER).toBe("matrix");
    expect(isCameraFilter(CAMERA_DEFAULT_FILTER)).toBe(true);
    expect(isCameraFilter("sepia")).toBe(false);
    expect(Object.keys(FILTER_LABELS).sort()).toEqual([...CAMERA_FILTERS].sort());
  });

  it("gives every filter its own recipe, and none draws the frame untouched", () => {
    const recipes = CAMERA_FILTERS.map((filter) => JSON.stringify(FILTER_RECIPES[filter]));
    expect(new Set(recipes).size).toBe(CAMERA_FILTERS.length);
    expect(FILTER_RECIPES.none).toEqual({ css: "none", layers: [] });
    for (const filter of CAMERA_FILTERS.filter((name) => name !== "none")) {
      const recipe = FILTER_RECIPES[filter];
      // Something beyond saturation changes a grey picture too: a tint layer, a palette or a grey/sepia/blur filter.
      const changesGrey =
        recipe.layers.length > 0 || recipe.pixelMap !== undefined || /grayscale|sepia|blur/.test(recipe.css);
      expect(changesGrey, filter).toBe(true);
    }
  });

  it("luma weighs green most and spans 0..255", () => {
    expect(luma(0, 0, 0)).toBe(0);
    expect(luma(255, 255, 255)).toBe(255);
    expect(luma(0, 255, 0)).toBeGreaterThan(luma(255, 0, 0));
    expect(luma(255, 0, 0)).toBeGreaterThan(luma(0, 0, 255));
  });

  it("the thermal palette runs from cold dark blue to white-hot, getting brighter all the way", () => {
    const palette = thermalPalette();
    expect(palette).toHaveLength(256 * 3);
    expect([...palette.subarray(0, 3)]).toEqual([0, 0, 24]);
    expect([...palette.subarray(255 * 3)]).toEqual([255, 255, 225]);
    let previous = -1;
    for (let level = 0; level < 256; level++) {
      const brightness = luma(palette[level * 3], palette[level * 3 + 1], palette[level * 3 + 2]);
      expect(brightness).toBeGreaterThanOrEqual(previous);
      previous = brightness;
    }
  });

  it("maps pixels through a palette by luma and leaves alpha alone", () => {
    const palette = thermalPalette();
    const pixels = new Uint8ClampedArray([0, 0, 0, 255, 255, 255, 255, 128, 90, 90, 90, 7]);
    mapPixelsThroughPalette(pixels, palette);
    expect([...pixels.subarray(0, 4)]).toEqual([0, 0, 24, 255]);
    expect([...pixels.subarray(4, 8)]).toEqual([255, 255, 225, 128]);
    expect([...pixels.subarray(8, 12)]).toEqual([...palette.subarray(90 * 3, 90 * 3 + 3), 7]);

    const grey = new Uint8ClampedArray([128, 128, 128, 255]);
    applyPixelMap(grey, "thermal");
    expect(grey[0]).not.toBe(grey[2]);
  });

  it("crops the camera's picture to cover the output without stretching", () => {
    expect(coverCrop(640, 480, 1280, 720)).toEqual({ x: 0, y: 60, width: 640, height: 360 });
    expect(coverCrop(1280, 720, 1280, 720)).toEqual({ x: 0, y: 0, width: 1280, height: 720 });
    expect(coverCrop(720, 1280, 1280, 720)).toEqual({ x: 0, y: 437.5, width: 720, height: 405 });
  });

  it("glyph rain falls and restarts above the top after leaving the bottom; glyphs hold still for a few frames", () => {
    const fixed = () => 0.5;
    const rain = createGlyphRain(3, fixed);
    expect(rain.heads).toEqual([10, 10, 10]);
    advanceGlyphRain(rain, 30, fixed);
    expect(rain.heads).toEqual([10.55, 10.55, 10.55]);
    rain.heads[0] = 60;
    advanceGlyphRain(rain, 30, fixed);
    expect(rain.heads[0]).toBe(-10);
    expect(glyphAt(3, 4, 0)).toBe(glyphAt(3, 4, 5));
    expect(glyphAt(3, 4, 0)).toHaveLength(1);
  });
});

describe("recording formats", () => {
  const supports =
    (...types: string[]) =>
    (type: string) =>
      types.includes(type);

  it("voice memos are audio/mp4 saved as .m4a where supported, otherwise the honest container", () => {
    expect(pickRecordingFormat(VOICE_MEMO_FORMATS, supports("audio/mp4", "audio/webm"))).toEqual({
      mimeType: "audio/mp4",
      extension: "m4a",
    });
    expect(
      pickRecordingFormat(VOICE_MEMO_FORMATS, supports("audio/webm;codecs=opus", "audio/ogg;codecs=opus")),
    ).toEqual({
      mimeType: "audio/webm;codecs=opus",
      extension: "webm",
    });
    expect(pickRecordingFormat(VOICE_MEMO_FORMATS, supports("audio/ogg;codecs=opus"))?.extension).toBe("ogg");
    expect(pickRecordingFormat(VOICE_MEMO_FORMATS, supports())).toBeNull();
  });

  it("camera videos are WebM, MP4 only where WebM cannot be written", () => {
    expect(
      pickRecordingFormat(CAMERA_VIDEO_FORMATS, supports("video/webm", "video/webm;codecs=vp8", "video/mp4")),
    ).toEqual({
      mimeType: "video/webm;codecs=vp8",
      extension: "webm",
    });
    expect(pickRecordingFormat(CAMERA_VIDEO_FORMATS, supports("video/mp4"))?.extension).toBe("mp4");
  });

  it("names, times and types", () => {
    expect(containerType("audio/webm;codecs=opus")).toBe("audio/webm");
    expect(formatElapsed(0)).toBe("0:00");
    expect(formatElapsed(7_900)).toBe("0:07");
    expect(formatElapsed(754_000)).toBe("12:34");
    expect(formatElapsed(3_723_000)).toBe("1:02:03");
    expect(isPermissionError(new DOMException("no", "NotAllowedError"))).toBe(true);
    expect(isPermissionError(new DOMException("none", "NotFoundError"))).toBe(false);
    const date = new Date(2026, 0, 15, 9, 4, 5);
    expect(fileTimestamp(date)).toBe("2026-01-15-090405");
    expect(captureFilename("camera-matrix", date, "png")).toBe("camera-matrix-2026-01-15-090405.png");
  });
});

describe("camera gallery", () => {
  it("ids are timestamps, unique even within one millisecond", () => {
    expect(nextCaptureId(1000, [])).toBe(1000);
    expect(nextCaptureId(1000, [400, 999])).toBe(1000);
    expect(nextCaptureId(1000, [1000])).toBe(1001);
    expect(nextCaptureId(1000, new Set([1000, 1001]))).toBe(1002);
  });

  it("saves photos as .png and videos with their container's extension", () => {
    expect(captureExtension("photo", "image/png")).toBe("png");
    expect(captureExtension("video", "video/webm")).toBe("webm");
    expect(captureExtension("video", "video/mp4")).toBe("mp4");
  });
});
