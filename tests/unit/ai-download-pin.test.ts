import { execFileSync } from "node:child_process";
import fs from "node:fs";
import type http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readAiConfig, type RemoteCallConfig } from "~/ai/config.server";
import { FAILURE_TEXT, ProviderError } from "~/ai/errors.server";
import { OpenAiImages } from "~/ai/chat/openai-compatible.server";
import { checkDownloadUrl } from "~/ai/download-pin.server";
import { ReplicateVideo } from "~/ai/video/replicate-video.server";
import { errorResponse } from "~/lib/http/responder.server";
import { providerFailure } from "~/services/provider-failure.server";
import { sendJson, startStubServer, TINY_PNG, type StubServer } from "../support/ai-stub-server";

/**
 * Provider downloads are pinned: a link in a provider's answer (an image `url`, a Replicate `output`)
 * and every redirect on the way are fetched only from the provider's configured host or a host named
 * in AI_DOWNLOAD_HOSTS, over http only when the base URL itself is http, within a size bound. A
 * refused download is the provider's failure (502, the text in docs/screens.md#error-messages), and the other host sees no request.
 */
const FAST: RemoteCallConfig = { timeoutMs: 2000, totalTimeoutMs: 10_000, maxRetries: 0, retryBaseMs: 10 };
const MiB = 1024 * 1024;

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function stub(handler: Parameters<typeof startStubServer>[0]): Promise<StubServer> {
  const server = await startStubServer(handler);
  servers.push(server);
  return server;
}

/** A file host: serves TINY_PNG on any path (it must see no request when a download is refused). */
const fileHost = () =>
  stub((_request, response) => {
    response.writeHead(200, { "Content-Type": "image/png" });
    response.end(TINY_PNG);
  });

/** An image server whose /v1/images/generations answers `{data: [{url: link()}]}`; other paths as `files`. */
function imageServer(link: () => string, files?: Parameters<typeof startStubServer>[0]) {
  return stub((request, response) => {
    if (request.path === "/v1/images/generations") return sendJson(response, 200, { data: [{ url: link() }] });
    if (files) return files(request, response);
    response.writeHead(200, { "Content-Type": "image/png" });
    response.end(TINY_PNG);
  });
}

const images = (baseUrl: string, call: RemoteCallConfig = FAST, maxBytes = MiB) =>
  new OpenAiImages(
    {
      baseUrl,
      apiKey: "sk-test",
      chatModel: null,
      speechModel: null,
      speechVoices: [],
      imageModel: "gpt-image-1",
      imageSize: "512x512",
    },
    call,
    maxBytes,
  );

async function refused(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (e) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  expect(error.failure).toBe("bad_response");
  return error as ProviderError;
}

describe("provider downloads are pinned to the provider's host", () => {
  it("accepts a link on the configured host, and a redirect that stays on it", async () => {
    const server: StubServer = await imageServer(
      () => `${server.url}/files/start.png`,
      (request, response) => {
        if (request.path === "/files/start.png") {
          response.writeHead(302, { Location: "/files/out.png" });
          return response.end();
        }
        response.writeHead(200, { "Content-Type": "image/png" });
        response.end(TINY_PNG);
      },
    );
    const image = await images(`${server.url}/v1`).generate("a dot");
    expect(image.contentType).toBe("image/png");
    expect(server.requests.map((r) => r.path)).toEqual([
      "/v1/images/generations",
      "/files/start.png",
      "/files/out.png",
    ]);
  });

  it("refuses a link on another host (another port, another name for the same machine); that host sees nothing", async () => {
    const other = await fileHost();
    const server = await imageServer(() => `${other.url}/x.png`);
    const error = await refused(images(`${server.url}/v1`).generate("x"));
    expect(error.message).toMatch(
      /download refused: a link to 127\.0\.0\.1:\d+, neither the provider's host nor in AI_DOWNLOAD_HOSTS/,
    );
    expect(other.requests).toHaveLength(0);

    const port = new URL(server.url).port;
    const byName = await imageServer(() => `http://localhost:${port}/x.png`);
    await refused(images(`${byName.url}/v1`).generate("x"));
    expect(byName.requests.map((r) => r.path)).toEqual(["/v1/images/generations"]);
  });

  it("accepts another host named in AI_DOWNLOAD_HOSTS", async () => {
    const other = await fileHost();
    const server = await imageServer(() => `${other.url}/x.png`);
    const downloadHosts = readAiConfig({ AI_DOWNLOAD_HOSTS: `cdn.example.com, ${new URL(other.url).host}` }).remote
      .downloadHosts;
    expect(downloadHosts).toEqual(["cdn.example.com", new URL(other.url).host]);
    const image = await images(`${server.url}/v1`, { ...FAST, downloadHosts }).generate("x");
    expect(image.contentType).toBe("image/png");
    expect(other.requests.map((r) => r.path)).toEqual(["/x.png"]);
  });

  it("refuses a redirect to another host; that host sees nothing", async () => {
    const other = await fileHost();
    const server: StubServer = await imageServer(
      () => `${server.url}/files/out.png`,
      (_request, response) => {
        response.writeHead(302, { Location: `${other.url}/metadata` });
        response.end();
      },
    );
    const error = await refused(images(`${server.url}/v1`).generate("x"));
    expect(error.message).toMatch(/download refused: a redirect to 127\.0\.0\.1:\d+/);
    expect(other.requests).toHaveLength(0);
  });

  it("refuses more than 3 redirects, even on the configured host", async () => {
    let hops = 0;
    const server: StubServer = await imageServer(
      () => `${server.url}/files/0`,
      (_request, response) => {
        response.writeHead(307, { Location: `/files/${++hops}` });
        response.end();
      },
    );
    const error = await refused(images(`${server.url}/v1`).generate("x"));
    expect(error.message).toMatch(/more than 3 redirects/);
    expect(server.requests).toHaveLength(1 + 4);
  });

  it("refuses a redirect from https to http, even to an allowed host", async () => {
    const http = await fileHost();
    const tls = await httpsServer((request, response) => {
      if (request.url === "/v1/images/generations") {
        response.writeHead(200, { "Content-Type": "application/json" });
        return response.end(JSON.stringify({ data: [{ url: `${tls.url}/files/out.png` }] }));
      }
      response.writeHead(302, { Location: `${http.url}/out.png` });
      response.end();
    });
    const previous = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0"; // the test's self-signed certificate
    try {
      const call = { ...FAST, downloadHosts: [new URL(http.url).host] };
      const error = await refused(images(`${tls.url}/v1`, call).generate("x"));
      expect(error.message).toMatch(
        /download refused: a redirect to plain http while the provider's base URL is https/,
      );
      expect(http.requests).toHaveLength(0);
      expect(tls.paths).toEqual(["/v1/images/generations", "/files/out.png"]);
    } finally {
      if (previous === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previous;
    }
  });

  it("http is allowed only when the base URL is http; hosts match with their port, *.domain its subdomains", () => {
    const pin = (baseUrl: string, hosts: string[] = []) => ({ baseUrl, hosts });
    const check = (url: string, p: ReturnType<typeof pin>) => {
      try {
        return checkDownloadUrl(url, "image", "t", p);
      } catch (error) {
        return (error as ProviderError).failure;
      }
    };
    expect(check("http://api.example.com/x.png", pin("https://api.example.com/v1"))).toBe("bad_response");
    expect(check("https://api.example.com/x.png", pin("https://api.example.com/v1"))).toBe(
      "https://api.example.com/x.png",
    );
    expect(check("https://api.example.com:8443/x.png", pin("https://api.example.com/v1"))).toBe("bad_response");
    expect(check("http://127.0.0.1:7860/x.png", pin("http://127.0.0.1:7860"))).toBe("http://127.0.0.1:7860/x.png");
    expect(check("http://169.254.169.254/latest/meta-data/", pin("http://127.0.0.1:7860"))).toBe("bad_response");
    const cdn = pin("https://api.replicate.com/v1", ["*.replicate.delivery", "files.example.com:8443"]);
    expect(check("https://pbxt.replicate.delivery/a/out.mp4", cdn)).toBe("https://pbxt.replicate.delivery/a/out.mp4");
    expect(check("https://replicate.delivery.evil.com/out.mp4", cdn)).toBe("bad_response");
    expect(check("https://evilreplicate.delivery/out.mp4", cdn)).toBe("bad_response");
    expect(check("https://files.example.com:8443/out.mp4", cdn)).toBe("https://files.example.com:8443/out.mp4");
    expect(check("https://files.example.com/out.mp4", cdn)).toBe("bad_response");
    expect(check("file:///etc/passwd", cdn)).toBe("bad_response");
  });

  it("AI_DOWNLOAD_HOSTS refuses a value that is not a list of host names", () => {
    expect(() => readAiConfig({ AI_DOWNLOAD_HOSTS: "https://cdn.example.com/" })).toThrow(/AI_DOWNLOAD_HOSTS/);
    expect(readAiConfig({}).remote.downloadHosts).toEqual([]);
  });

  it("stops reading an oversized download (declared or streamed) at the bound", async () => {
    let streamed = 0;
    const server: StubServer = await imageServer(
      () => `${server.url}/files/${server.requests.length > 2 ? "streamed" : "declared"}.png`,
      (request, response) => {
        if (request.path === "/files/declared.png") {
          response.writeHead(200, { "Content-Type": "image/png", "Content-Length": String(4 * MiB) });
          return response.end(Buffer.alloc(4 * MiB));
        }
        // No Content-Length: 64 KiB chunks for as long as the client reads (at most 64 MiB).
        response.writeHead(200, { "Content-Type": "image/png" });
        const chunk = Buffer.alloc(64 * 1024);
        const write = () => {
          while (streamed < 64 * MiB && !response.destroyed) {
            streamed += chunk.length;
            if (!response.write(chunk)) return void response.once("drain", write);
          }
          response.end();
        };
        write();
      },
    );
    const declared = await refused(images(`${server.url}/v1`, FAST, MiB).generate("x"));
    expect(declared.message).toMatch(/answer larger than 1048576 bytes/);
    const streamedError = await refused(images(`${server.url}/v1`, FAST, MiB).generate("x"));
    expect(streamedError.message).toMatch(/answer larger than 1048576 bytes/);
    // The client stopped: far less than the 64 MiB the host would have sent went out.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(streamed).toBeLessThan(16 * MiB);
  });

  it("a refused download is the provider's failure: 502 with the text in docs/screens.md#error-messages, not a 500", async () => {
    const other = await fileHost();
    const server = await imageServer(() => `${other.url}/x.png`);
    const error = await refused(images(`${server.url}/v1`).generate("x"));
    const response = errorResponse(providerFailure(error, "image"));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ detail: FAILURE_TEXT.image });
  });

  it("Replicate: an output on another host is refused; on the API's own host it is fetched", async () => {
    const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from("....webm...."), Buffer.alloc(64)]);
    const other = await stub((_request, response) => {
      response.writeHead(200, { "Content-Type": "video/webm" });
      response.end(webm);
    });
    let output = "";
    const api = await stub((request, response) => {
      if (request.method === "POST") return sendJson(response, 201, { id: "pred-1", status: "starting" });
      if (request.path === "/v1/predictions/pred-1")
        return sendJson(response, 200, { id: "pred-1", status: "succeeded", output });
      response.writeHead(200, { "Content-Type": "video/webm" });
      response.end(webm);
    });
    const run = () =>
      new ReplicateVideo({ baseUrl: `${api.url}/v1`, apiToken: "r8_test", model: "acme/t2v" }, FAST, MiB, 10).run({
        prompt: "a cat",
        resume: { progress: 0, externalId: null },
        signal: new AbortController().signal,
        report: async () => {},
      });
    output = `${other.url}/clip.webm`;
    expect((await refused(run())).message).toMatch(/download refused/);
    expect(other.requests).toHaveLength(0);
    output = `${api.url}/out/clip.webm`;
    expect((await run()).bytes.equals(webm)).toBe(true);
  });
});

/** An https server with a self-signed certificate made for the test (openssl). */
async function httpsServer(handler: (request: http.IncomingMessage, response: http.ServerResponse) => void) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-tls-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-subj",
      "/CN=127.0.0.1",
      "-days",
      "1",
      "-keyout",
      `${dir}/key.pem`,
      "-out",
      `${dir}/cert.pem`,
    ],
    { stdio: "ignore" },
  );
  const paths: string[] = [];
  const server = https.createServer(
    { key: fs.readFileSync(`${dir}/key.pem`), cert: fs.readFileSync(`${dir}/cert.pem`) },
    (request, response) => {
      paths.push(request.url ?? "");
      request.resume();
      request.on("end", () => handler(request, response));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const result = {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        fs.rmSync(dir, { recursive: true, force: true });
      }),
  };
  servers.push(result);
  return result;
}
