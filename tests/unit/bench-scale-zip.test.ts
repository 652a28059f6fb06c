import yazl from "yazl";
import { describe, expect, it } from "vitest";
import { zipEntries } from "../../bench/scale-requests.mjs";

// `npm run bench -- scale` checks that an export holds every piece and file from the zip's own end
// records; a person of 100,000 pieces needs zip64's, which yazl writes past 65,534 entries.

function zipOf(entries: number, forceZip64Format: boolean): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (let i = 0; i < entries; i++) zip.addBuffer(Buffer.from(`entry ${i}`), `notes/${i}.md`);
  zip.end({ forceZip64Format, comment: "" });
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on("error", reject);
  });
}

describe("the scale bench's count of a zip's entries", () => {
  it("reads the end record of a plain zip", async () => {
    expect(zipEntries(await zipOf(123, false))).toBe(123);
  });

  it("reads zip64's end record when the plain one says 0xffff", async () => {
    const zip = await zipOf(7, true);
    expect(zip.readUInt16LE(zip.length - 22 + 10)).toBe(0xffff);
    expect(zipEntries(zip)).toBe(7);
  });

  it("answers null for bytes that are not a whole zip", async () => {
    const zip = await zipOf(5, false);
    expect(zipEntries(zip.subarray(0, zip.length - 30))).toBeNull();
  });
});
