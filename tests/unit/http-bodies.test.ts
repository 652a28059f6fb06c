import { describe, expect, it } from "vitest";
import { BodyError, readBodyBytes, readFormData, readJsonBody } from "~/lib/http/bodies.server";

const streamOf = (chunks: string[], keepOpen = false) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      if (!keepOpen) controller.close();
    },
  });

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://test.invalid/", { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("bounded request bodies", () => {
  it("reads a body within the limit", async () => {
    expect((await readBodyBytes(post(streamOf(["ab", "cd"])), 4)).toString()).toBe("abcd");
  });

  it("refuses a body over the limit, by its declared length or by counting (413)", async () => {
    await expect(readBodyBytes(post("12345", { "Content-Length": "5" }), 4)).rejects.toMatchObject({ status: 413 });
    await expect(readBodyBytes(post(streamOf(["abc", "de"])), 4)).rejects.toMatchObject({ status: 413 });
  });

  it("refuses a body that does not arrive in time (408)", async () => {
    const error = await readBodyBytes(post(streamOf(["a"], true)), 100, 50).catch((caught) => caught);
    expect(error).toBeInstanceOf(BodyError);
    expect(error.status).toBe(408);
  });

  it("answers the API's JSON errors and the screens' form errors with the status", async () => {
    const tooLarge = (await readJsonBody(post(streamOf(['{"a":"', "x".repeat(20), '"}'])), 10).catch(
      (caught) => caught,
    )) as Response;
    expect(tooLarge).toBeInstanceOf(Response);
    expect(tooLarge.status).toBe(413);
    // The one byte formatter states the limit exactly (it used to round 10 B up to "1 KiB").
    expect(await tooLarge.json()).toEqual({ detail: "Request body must be at most 10 B" });
    const unreadable = await readFormData(post("garbage", { "Content-Type": "multipart/form-data" })).catch(
      (caught) => caught,
    );
    expect(unreadable).toBeInstanceOf(Response);
    expect(unreadable.status).toBe(400);
    const form = await readFormData(post("a=1&b=two", { "Content-Type": "application/x-www-form-urlencoded" }));
    expect(form.get("b")).toBe("two");
  });

  it("reads a screen's multipart form with form-data-parser: fields and a small file; too many files is a 400", async () => {
    const form = new FormData();
    form.append("intent", "save");
    form.append("title", "Grüße");
    form.append("file", new Blob([new Uint8Array([1, 2, 3])], { type: "image/png" }), "sketch.png");
    const parsed = await readFormData(new Request("http://test.invalid/", { method: "POST", body: form }));
    expect(parsed.get("intent")).toBe("save");
    expect(parsed.get("title")).toBe("Grüße");
    const file = parsed.get("file") as File;
    expect(file.name).toBe("sketch.png");
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([1, 2, 3]);

    const crowded = new FormData();
    for (let i = 0; i < 5; i++) crowded.append(`file${i}`, new Blob(["x"]), `f${i}.txt`);
    const refused = await readFormData(new Request("http://test.invalid/", { method: "POST", body: crowded })).catch(
      (caught) => caught,
    );
    expect(refused).toBeInstanceOf(Response);
    expect(refused.status).toBe(400);
  });
});
