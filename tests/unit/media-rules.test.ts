import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseRange } from "~/lib/http/byte-range";
import { SNIFF_BYTES, sniffMp3, sniffVideo } from "~/lib/storage/file-signatures";
import { signMediaAccess, verifyMediaAccess } from "~/lib/storage/signed-url.server";
import { checkMediaName, lookupName, nameFromUpload, numberedName, withExtension } from "~/common/media/media-names";
import { isoMedia, movBytes, mp3Frames, mp3WithId3, mp4Bytes, PNG_BYTES, riffBytes, webmBytes } from "../support/media";

describe("media names (docs/screens.md#validation-rules)", () => {
  it("trims and appends the kind's extension when missing", () => {
    expect(checkMediaName("  my take ", "voice")).toEqual({ ok: true, name: "my take.mp3" });
    expect(checkMediaName("my take.mp3", "voice")).toEqual({ ok: true, name: "my take.mp3" });
    // The extension is stored lower case, whatever case it was typed in.
    expect(checkMediaName("Shout.MP3", "voice")).toEqual({ ok: true, name: "Shout.mp3" });
    expect(checkMediaName("Trip.MoV", "video")).toEqual({ ok: true, name: "Trip.mov" });
    expect(withExtension("clip.MP3", "voice")).toBe("clip.mp3");
    expect(checkMediaName("holiday", "video")).toEqual({ ok: true, name: "holiday.mov" });
    expect(checkMediaName("holiday.mp4", "video")).toEqual({ ok: true, name: "holiday.mp4.mov" });
    expect(withExtension("a.mov", "video")).toBe("a.mov");
  });

  it("stores and looks up names in Unicode NFC", () => {
    const composed = "Caf\u00e9";
    const decomposed = "Cafe\u0301";
    expect(checkMediaName(decomposed, "voice")).toEqual({ ok: true, name: `${composed}.mp3` });
    expect(nameFromUpload(`${decomposed}.MP3`, "voice")).toBe(`${composed}.mp3`);
    expect(lookupName(`${decomposed}.mp3`)).toBe(`${composed}.mp3`);
  });

  it.each([
    ["", "Name is required"],
    ["   ", "Name is required"],
    [".mp3", "Name is required"],
    ["..", "Name is required"],
    ["../../etc/passwd", "Name must not contain / or \\"],
    ["a\\b", "Name must not contain / or \\"],
    ["bad\u0000name", "Name must not contain control characters"],
    ["line\nbreak", "Name must not contain control characters"],
    ["del\u007f", "Name must not contain control characters"],
    ["x".repeat(117), "Name must be at most 120 characters"],
  ])("refuses %j", (raw, message) => {
    expect(checkMediaName(raw, "voice")).toEqual({ ok: false, message });
  });

  it("accepts 120 characters with the extension, and any script", () => {
    expect(checkMediaName("x".repeat(116), "voice")).toEqual({ ok: true, name: `${"x".repeat(116)}.mp3` });
    expect(checkMediaName("Grüße 🎙️ 声音", "voice")).toEqual({ ok: true, name: "Grüße 🎙️ 声音.mp3" });
    expect(checkMediaName(42, "voice")).toEqual({ ok: false, message: "Name is required" });
  });

  it("names an upload after its file, swapping a media extension for the kind's", () => {
    expect(nameFromUpload("Interview.mp3", "voice")).toBe("Interview.mp3");
    expect(nameFromUpload("Interview.MP3", "voice")).toBe("Interview.mp3");
    expect(nameFromUpload("holiday.mp4", "video")).toBe("holiday.mov");
    expect(nameFromUpload("clip.webm", "video")).toBe("clip.mov");
    expect(nameFromUpload("C:\\Users\\me\\take 1.mp3", "voice")).toBe("take 1.mp3");
    expect(nameFromUpload("../../x.mov", "video")).toBe("x.mov");
    expect(nameFromUpload("tab\there.mp3", "voice")).toBe("tab here.mp3");
    expect(nameFromUpload("", "voice")).toBe("voice.mp3");
    expect(nameFromUpload(undefined, "video")).toBe("video.mov");
    expect(nameFromUpload("...", "video")).toBe("video.mov");
    const long = nameFromUpload(`${"y".repeat(300)}.mp3`, "voice");
    expect(long).toHaveLength(120);
    expect(long.endsWith("y.mp3")).toBe(true);
  });

  it("numbers a taken name before its extension, within the length limit", () => {
    expect(numberedName("take.mp3", 2, "voice")).toBe("take (2).mp3");
    expect(numberedName("clip.mov", 10, "video")).toBe("clip (10).mov");
    const long = numberedName(`${"z".repeat(116)}.mp3`, 2, "voice");
    expect(long).toHaveLength(120);
    expect(long.endsWith(" (2).mp3")).toBe(true);
  });
});

describe("content sniffing", () => {
  it("recognises MP3 by an ID3 tag or consecutive Layer III frames", () => {
    expect(sniffMp3(mp3WithId3())).toBe("audio/mpeg");
    expect(sniffMp3(mp3Frames(3))).toBe("audio/mpeg");
    // A frame header whose next frame is missing is not MP3 (a stray 0xFFFB at the start of something else).
    const stray = mp3Frames(2);
    stray[417] = 0;
    expect(sniffMp3(stray)).toBeNull();
    // Too short to see a second frame: the one header decides.
    expect(sniffMp3(mp3Frames(1).subarray(0, 100))).toBe("audio/mpeg");
  });

  /** An ID3v2 tag header declaring `size` bytes of tag body (syncsafe), with optional flags. */
  const id3Header = (size: number, { major = 3, flags = 0 } = {}) =>
    Buffer.from([
      0x49,
      0x44,
      0x33,
      major,
      0,
      flags,
      (size >> 21) & 0x7f,
      (size >> 14) & 0x7f,
      (size >> 7) & 0x7f,
      size & 0x7f,
    ]);
  /** A tag of `size` body bytes (a TIT2 text frame, then zero padding). */
  const id3Tag = (size: number, options?: { major?: number; flags?: number }) => {
    const body = Buffer.alloc(size);
    Buffer.from("TIT2\0\0\0\x06\0\0\0Title", "latin1").copy(body);
    return Buffer.concat([id3Header(size, options), body]);
  };

  it("looks past an ID3 tag for the audio frames its size points at", () => {
    // A real tag with text and padding, then frames: MP3.
    expect(sniffMp3(Buffer.concat([id3Tag(2000), mp3Frames(3)]))).toBe("audio/mpeg");
    // Syncsafe: 0x01 0x00 = 128 bytes, not 256.
    expect(sniffMp3(Buffer.concat([id3Tag(128), mp3Frames(2)]))).toBe("audio/mpeg");
    // ID3v2.4 with a footer (flag 0x10): the audio starts 10 bytes later.
    const footer = Buffer.from([0x33, 0x44, 0x49, 4, 0, 0x10, 0, 0, 0, 100]);
    expect(sniffMp3(Buffer.concat([id3Tag(100, { major: 4, flags: 0x10 }), footer, mp3Frames(2)]))).toBe("audio/mpeg");
    // Two tags in a row, and zero padding after the declared size, before the frames.
    expect(sniffMp3(Buffer.concat([id3Tag(50), id3Tag(70, { major: 4 }), Buffer.alloc(300), mp3Frames(2)]))).toBe(
      "audio/mpeg",
    );
  });

  it("refuses an ID3 tag followed by something other than audio", () => {
    // The case: "ID3" and then a web page (was stored as audio/mpeg).
    expect(sniffMp3(Buffer.concat([id3Header(0), Buffer.from("<html><script>alert(1)</script></html>")]))).toBeNull();
    expect(sniffMp3(Buffer.concat([id3Tag(500), Buffer.from("<html><body>hello</body></html>")]))).toBeNull();
    expect(sniffMp3(Buffer.concat([id3Tag(500), PNG_BYTES]))).toBeNull();
    // A single stray frame header after the tag, the next frame missing.
    const stray = Buffer.concat([id3Tag(40), mp3Frames(2)]);
    stray[50 + 417] = 0x3c;
    expect(sniffMp3(stray)).toBeNull();
    // A size that does not match where the audio is (points into the tag's own text).
    expect(sniffMp3(Buffer.concat([id3Header(5), Buffer.alloc(10, 0x41), mp3Frames(2)]))).toBeNull();
  });

  it("accepts a tag larger than the inspected head on its header alone (cover art)", () => {
    // 1 MiB of tag: the store only shows the sniffer the first SNIFF_BYTES.
    const big = Buffer.concat([id3Tag(1024 * 1024), mp3Frames(2)]);
    expect(sniffMp3(big.subarray(0, SNIFF_BYTES))).toBe("audio/mpeg");
    // Well inside the head a tag of a few KiB is looked past: the head is large enough for it.
    expect(SNIFF_BYTES).toBeGreaterThanOrEqual(64 * 1024);
    const padded = Buffer.concat([id3Tag(20_000), Buffer.from("<html>")]);
    expect(sniffMp3(padded.subarray(0, SNIFF_BYTES))).toBeNull();
  });

  it("refuses what is not MP3", () => {
    for (const bytes of [
      Buffer.from("hello world, not audio"),
      PNG_BYTES,
      riffBytes("WAVE"),
      mp4Bytes(),
      Buffer.alloc(0),
    ]) {
      expect(sniffMp3(bytes)).toBeNull();
    }
    // ID3 with a bad version or size byte.
    expect(sniffMp3(Buffer.from([0x49, 0x44, 0x33, 0x09, 0, 0, 0, 0, 0, 0]))).toBeNull();
    expect(sniffMp3(Buffer.from([0x49, 0x44, 0x33, 0x03, 0, 0, 0x80, 0, 0, 0]))).toBeNull();
    // AAC (ADTS) shares the sync bits but has layer 00.
    expect(sniffMp3(Buffer.from([0xff, 0xf1, 0x50, 0x80, 0, 0, 0, 0]))).toBeNull();
  });

  it("accepts the bundled music demos (real MP3 from lamejs)", () => {
    for (const file of ["demo1.mp3", "demo2.mp3", "demo3.mp3"]) {
      const bytes = fs.readFileSync(path.resolve("public/static/music-demos", file)).subarray(0, 4096);
      expect(sniffMp3(bytes)).toBe("audio/mpeg");
    }
  });

  it("recognises video containers", () => {
    expect(sniffVideo(mp4Bytes())).toBe("video/mp4");
    expect(sniffVideo(movBytes())).toBe("video/quicktime");
    expect(sniffVideo(isoMedia("3gp4"))).toBe("video/3gpp");
    expect(sniffVideo(webmBytes())).toBe("video/webm");
    expect(
      sniffVideo(Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from("matroska"), Buffer.alloc(20)])),
    ).toBe("video/x-matroska");
    expect(sniffVideo(riffBytes("AVI "))).toBe("video/x-msvideo");
    const moovFirst = Buffer.alloc(32);
    moovFirst.writeUInt32BE(32, 0);
    moovFirst.write("moov", 4, "latin1");
    expect(sniffVideo(moovFirst)).toBe("video/quicktime");
  });

  it("refuses audio and image files in video containers, and everything else", () => {
    for (const bytes of [
      isoMedia("M4A "),
      isoMedia("heic"),
      isoMedia("avif"),
      riffBytes("WAVE"),
      PNG_BYTES,
      mp3WithId3(),
      Buffer.from("<html><script>alert(1)</script>"),
      Buffer.alloc(4),
    ]) {
      expect(sniffVideo(bytes)).toBeNull();
    }
  });
});

describe("byte ranges", () => {
  it.each([
    [null, { kind: "full" }],
    ["bytes=0-99", { kind: "partial", start: 0, end: 99 }],
    ["bytes=100-", { kind: "partial", start: 100, end: 999 }],
    ["bytes=-100", { kind: "partial", start: 900, end: 999 }],
    ["bytes=-5000", { kind: "partial", start: 0, end: 999 }],
    ["bytes=990-5000", { kind: "partial", start: 990, end: 999 }],
    ["bytes=999-999", { kind: "partial", start: 999, end: 999 }],
    ["bytes=0-0,5-9", { kind: "full" }],
    ["items=0-5", { kind: "full" }],
    ["bytes=1000-", { kind: "unsatisfiable" }],
    ["bytes=5-2", { kind: "unsatisfiable" }],
    ["bytes=-0", { kind: "unsatisfiable" }],
    ["bytes=abc", { kind: "unsatisfiable" }],
    ["bytes=-", { kind: "unsatisfiable" }],
    ["bytes=99999999999999999999999-", { kind: "unsatisfiable" }],
  ])("%s of 1000 bytes", (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });
});

describe("signed media URLs", () => {
  const now = Date.UTC(2025, 9, 1, 12);

  it("verify for one hour for the user and file they were made for", () => {
    const signed = signMediaAccess("user-1", "file-1", now);
    expect(signed.expiresAt.getTime()).toBe(now + 3600_000);
    expect(verifyMediaAccess("file-1", signed, now)).toEqual({
      ok: true,
      userId: "user-1",
      expires: now / 1000 + 3600,
    });
    expect(verifyMediaAccess("file-1", signed, now + 3599_000).ok).toBe(true);
    expect(verifyMediaAccess("file-1", signed, now + 3600_000)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuse any change to the user, file, expiry or signature", () => {
    const signed = signMediaAccess("user-1", "file-1", now);
    expect(verifyMediaAccess("file-2", signed, now)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyMediaAccess("file-1", { ...signed, user: "user-2" }, now)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyMediaAccess("file-1", { ...signed, expires: String(Number(signed.expires) + 3600) }, now)).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(
      verifyMediaAccess(
        "file-1",
        { ...signed, signature: signed.signature.slice(0, -1) + (signed.signature.endsWith("A") ? "B" : "A") },
        now,
      ),
    ).toEqual({ ok: false, reason: "invalid" });
    expect(verifyMediaAccess("file-1", { ...signed, signature: "" }, now)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyMediaAccess("file-1", { user: "user-1", expires: "soon", signature: signed.signature }, now)).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(verifyMediaAccess("file-1", {}, now)).toEqual({ ok: false, reason: "invalid" });
  });
});
