import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { api, baseUrl, newUser } from "../support/api";

/**
 * GET /media/{id}/thumbnail is bounded (app/lib/storage/thumbnails.server.ts): requests at once for one image
 * share one computation (Server-Timing: computed / shared / cached), a picture of more than 24
 * megapixels answers 422 with a detail (never a 500), and nothing answers 5xx under a flood.
 */
const upload = async (token: string, bytes: Buffer, filename: string) => {
  const form = new FormData();
  form.append("kind", "photo");
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "application/octet-stream" }), filename);
  const saved = await api("/api/library/upload", { raw: form, token });
  expect(saved.status).toBe(201);
  return saved.body.id as string;
};

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .png({ compressionLevel: 9 })
    .toBuffer();

const thumbnail = (id: string, token: string) =>
  fetch(`${baseUrl()}/media/${id}/thumbnail`, { headers: { Authorization: `Bearer ${token}` } });
const sourceOf = (response: Response) =>
  /thumbnail;desc="(\w+)"/.exec(response.headers.get("server-timing") ?? "")?.[1];

describe("GET /media/{id}/thumbnail under load", () => {
  it("20 requests at once for one image: one computation, the others share it, all 200", async () => {
    const { token } = await newUser("thumb-flood");
    const id = await upload(token, await png(3000, 2000), "big.png");
    const answers = await Promise.all(Array.from({ length: 20 }, () => thumbnail(id, token)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const sources = answers.map(sourceOf);
    expect(sources.filter((s) => s === "computed")).toHaveLength(1);
    expect(sources.every((s) => s === "computed" || s === "shared" || s === "cached")).toBe(true);
    const bytes = await Promise.all(answers.map(async (a) => Buffer.from(await a.arrayBuffer())));
    expect(bytes.every((b) => b.equals(bytes[0]))).toBe(true);
    expect(sourceOf(await thumbnail(id, token))).toBe("cached");
  });

  it("a picture of more than 24 megapixels: 422 with a detail, not decoded", async () => {
    const { token } = await newUser("thumb-huge");
    const id = await upload(token, await png(6000, 4500), "huge.png");
    const response = await api(`/media/${id}/thumbnail`, { token });
    expect(response.status).toBe(422);
    expect(response.body.detail).toMatch(/6000x4500 is 27 megapixels, more than the 24/);
  });
});
