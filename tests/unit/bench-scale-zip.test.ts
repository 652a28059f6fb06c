import { describe, expect, it } from "vitest";
import { createZipStream } from "../../app/lib/zip/zip-stream.server";
import { zipEntries } from "../../bench/scale-requests.mjs";

// `npm run bench -- scale` checks that an export holds every piece and file from the zip's own end
// records; a person of 100,000 pieces needs zip64's, which the export's writer adds from 65,535 entries.

async function zipOf(entries: number): Promise<Buffer> {
  const zip = createZipStream();
  for (let i = 0; i < entries; i++) zip.addBuffer(`notes/${i}.md`, `entry ${i}`);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.output) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("the scale bench's count of a zip's entries", () => {
  it("reads the end record of a plain zip", async () => {
    expect(zipEntries(await zipOf(123))).toBe(123);
  });

  it("reads zip64's end record when the plain one says 0xffff", async () => {
    const zip = await zipOf(65_536);
    expect(zip.readUInt16LE(zip.length - 22 + 10)).toBe(0xffff);
    expect(zipEntries(zip)).toBe(65_536);
  }, 60_000);

  it("answers null for bytes that are not a whole zip", async () => {
    const zip = await zipOf(5);
    expect(zipEntries(zip.subarray(0, zip.length - 30))).toBeNull();
  });
});
