import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { BodyError, type DoorPost, readBodyBytes, readDoorJsonBody, readFormData, readJsonBody, readNodeBody } from "~/lib/http.server";

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
    const tooLarge = (await readJsonBody(post(streamOf(["{\"a\":\"", "x".repeat(20), "\"}"])), 10).catch((caught) => caught)) as Response;
    expect(tooLarge).toBeInstanceOf(Response);
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ detail: "Request body must be at most 1 KiB" });
    const unreadable = await readFormData(post("garbage", { "Content-Type": "multipart/form-data" })).catch((caught) => caught);
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
    const refused = await readFormData(new Request("http://test.invalid/", { method: "POST", body: crowded })).catch((caught) => caught);
    expect(refused).toBeInstanceOf(Response);
    expect(refused.status).toBe(400);
  });
});

describe("bounded request bodies at the front door (Node's stream)", () => {
  const nodeBody = (chunks: string[], end = true) => {
    const body = new PassThrough();
    for (const chunk of chunks) body.write(chunk);
    if (end) body.end();
    return body;
  };

  it("reads a body within the limit, in one or many chunks", async () => {
    expect((await readNodeBody(nodeBody(['{"a":', "1}"]), "7", 100)).toString()).toBe('{"a":1}');
    expect((await readNodeBody(nodeBody([]), "0", 100)).byteLength).toBe(0);
  });

  it("refuses by declared length before reading, by counting, and past the deadline; then stops listening", async () => {
    await expect(readNodeBody(nodeBody(["x"]), "101", 100)).rejects.toMatchObject({ status: 413, message: "Request body must be at most 1 KiB" });
    const counted = nodeBody(["x".repeat(60), "x".repeat(60)], false);
    await expect(readNodeBody(counted, undefined, 100)).rejects.toBeInstanceOf(BodyError);
    expect(counted.listenerCount("data")).toBe(0);
    expect(counted.destroyed).toBe(false);
    const slow = nodeBody(["{"], false);
    await expect(readNodeBody(slow, undefined, 100, 20)).rejects.toMatchObject({ status: 408 });
    expect(slow.listenerCount("end")).toBe(0);
    const cut = nodeBody(["{"], false);
    const reading = readNodeBody(cut, undefined, 100);
    cut.destroy();
    await expect(reading).rejects.toMatchObject({ status: 400 });
  });

  it("answers JSON as readJsonBody does: {} when empty, 400 when not JSON, 413 with the API's detail", async () => {
    const door = (chunks: string[], length?: string): DoorPost => ({ url: "/", headers: { "content-length": length }, params: {}, body: nodeBody(chunks) });
    expect(await readDoorJsonBody(door([]))).toEqual({});
    expect(await readDoorJsonBody(door(['{"title":"Hi"}']))).toEqual({ title: "Hi" });
    const notJson = await readDoorJsonBody(door(["{title"])).catch((error: Response) => error);
    expect((notJson as Response).status).toBe(400);
    expect(await (notJson as Response).json()).toEqual({ detail: "Request body must be valid JSON" });
    const tooLarge = await readDoorJsonBody(door(["x"], String(3 * 1024 * 1024))).catch((error: Response) => error);
    expect((tooLarge as Response).status).toBe(413);
    expect(await (tooLarge as Response).json()).toEqual({ detail: "Request body must be at most 2 MiB" });
  });
});
