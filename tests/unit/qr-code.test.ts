import { describe, expect, it } from "vitest";
import { qrDataUrl, qrSvg } from "~/lib/qr-code.server";

describe("the share link's QR code, drawn on the server (decision 0071)", () => {
  it("is an SVG of dark modules in a path", async () => {
    const svg = await qrSvg("http://localhost:3000/s/abcdefghijklmnopqrstuv");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toMatch(/<path[^>]+stroke="#000000"[^>]+d="M[^"]+"/);
    expect(svg).not.toMatch(/<script/i);
  });

  it("changes with the link and stays the same for the same link", async () => {
    const one = await qrSvg("http://localhost:3000/s/first-token");
    const two = await qrSvg("http://localhost:3000/s/other-token");
    expect(one).not.toBe(two);
    expect(await qrSvg("http://localhost:3000/s/first-token")).toBe(one);
  });

  it("grows with a longer link (more modules)", async () => {
    const viewBox = (svg: string) => Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
    const short = viewBox(await qrSvg("http://a.b/s/x"));
    const long = viewBox(await qrSvg(`https://studio.example.com/s/${"k".repeat(120)}`));
    expect(long).toBeGreaterThan(short);
  });

  it("as a data: URL decodes back to the same SVG", async () => {
    const link = "https://studio.example.com/s/Zx0-token";
    const url = await qrDataUrl(link);
    expect(url.startsWith("data:image/svg+xml;base64,")).toBe(true);
    const decoded = Buffer.from(url.slice("data:image/svg+xml;base64,".length), "base64").toString("utf8");
    expect(decoded).toBe(await qrSvg(link));
  });
});
