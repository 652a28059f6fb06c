import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for remote AI providers (OpenAI-compatible, ElevenLabs, Replicate) on 127.0.0.1:
 * it records every request exactly as sent and answers with what the test's handler says.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON, when it is JSON. */
  json: any;
}

export type StubHandler = (request: RecordedRequest, response: http.ServerResponse) => unknown;

export interface StubServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startStubServer(handler: StubHandler): Promise<StubServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let json: unknown = undefined;
    try {
      json = body.length ? JSON.parse(body.toString("utf8")) : undefined;
    } catch {
      // not JSON (multipart, audio)
    }
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      path: req.url ?? "",
      headers: req.headers,
      body,
      json,
    };
    requests.push(recorded);
    try {
      await handler(recorded, res);
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** The recorded multipart body as FormData (to check what was sent). */
export function formDataOf(request: RecordedRequest): Promise<FormData> {
  return new Response(new Uint8Array(request.body), {
    headers: { "Content-Type": String(request.headers["content-type"]) },
  }).formData();
}

/** A tiny valid PNG (1x1, red), for image answers. */
export const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);

/** A minimal WAV file (44-byte header, 4 silent samples). */
export function tinyWav(): Buffer {
  const wav = Buffer.alloc(52);
  wav.write("RIFF", 0, "ascii");
  wav.writeUInt32LE(44, 4);
  wav.write("WAVEfmt ", 8, "ascii");
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(22050, 24);
  wav.writeUInt32LE(44100, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36, "ascii");
  wav.writeUInt32LE(8, 40);
  return wav;
}

/** One Server-Sent Event as OpenAI-compatible servers stream them. */
export function sseEvent(data: unknown): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** A chat.completion.chunk carrying `content` as its delta (the shape Ollama, llama.cpp, vLLM and OpenAI stream). */
export function chatChunk(content: string) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  };
}

/**
 * AUTOMATIC1111's API (POST /sdapi/v1/txt2img and /img2img -> {images: [base64], parameters, info}).
 * `answer` overrides what each call answers (a failure, a malformed body).
 */
export function automatic1111Handler(
  options: { image?: Buffer; answer?: (request: RecordedRequest, response: http.ServerResponse) => unknown } = {},
): StubHandler {
  return (request, response) => {
    if (options.answer) return options.answer(request, response);
    if (request.method === "POST" && (request.path === "/sdapi/v1/txt2img" || request.path === "/sdapi/v1/img2img")) {
      return sendJson(response, 200, {
        images: [(options.image ?? TINY_PNG).toString("base64")],
        parameters: request.json,
        info: "{}",
      });
    }
    sendJson(response, 404, { detail: "Not Found" });
  };
}

export interface ComfyUiStubOptions {
  /** How many GET /history polls answer {} (not run yet) before the job shows up. */
  pendingPolls?: number;
  /** The job ends with status_str "error" (an execution_error). */
  jobError?: boolean;
  /** The job never shows up in the history. */
  neverDone?: boolean;
  /** What GET /view serves. */
  image?: Buffer;
  /** Overrides one path's answer. */
  override?: Partial<
    Record<
      "/prompt" | "/upload/image" | "/history" | "/view",
      (request: RecordedRequest, response: http.ServerResponse) => unknown
    >
  >;
}

/**
 * ComfyUI's HTTP API: POST /upload/image (multipart `image`) -> {name, subfolder, type}; POST /prompt
 * {prompt, client_id} -> {prompt_id, number, node_errors}; GET /history/{id} -> {} until the job ran,
 * then {id: {prompt, outputs: {node: {images: [{filename, subfolder, type}]}}, status}}; GET /view
 * ?filename=&subfolder=&type= -> the image bytes.
 */
export function comfyUiHandler(options: ComfyUiStubOptions = {}): StubHandler {
  let polls = 0;
  return (request, response) => {
    const url = new URL(request.path, "http://stub");
    const override = (path: "/prompt" | "/upload/image" | "/history" | "/view") => options.override?.[path];
    if (request.method === "POST" && url.pathname === "/upload/image") {
      const custom = override("/upload/image");
      if (custom) return custom(request, response);
      return sendJson(response, 200, { name: "studio-sketch.png", subfolder: "uploads", type: "input" });
    }
    if (request.method === "POST" && url.pathname === "/prompt") {
      const custom = override("/prompt");
      if (custom) return custom(request, response);
      return sendJson(response, 200, { prompt_id: "job-7", number: 1, node_errors: {} });
    }
    if (request.method === "GET" && url.pathname.startsWith("/history/")) {
      const custom = override("/history");
      if (custom) return custom(request, response);
      polls++;
      if (options.neverDone || polls <= (options.pendingPolls ?? 0)) return sendJson(response, 200, {});
      const id = decodeURIComponent(url.pathname.slice("/history/".length));
      if (options.jobError) {
        return sendJson(response, 200, {
          [id]: {
            prompt: [],
            outputs: {},
            status: {
              status_str: "error",
              completed: false,
              messages: [["execution_error", { exception_message: "CUDA out of memory: secret-path" }]],
            },
          },
        });
      }
      return sendJson(response, 200, {
        [id]: {
          prompt: [],
          outputs: { "9": { images: [{ filename: "studio_00001_.png", subfolder: "out", type: "output" }] } },
          status: { status_str: "success", completed: true, messages: [] },
        },
      });
    }
    if (request.method === "GET" && url.pathname === "/view") {
      const custom = override("/view");
      if (custom) return custom(request, response);
      response.writeHead(200, { "Content-Type": "image/png" });
      return response.end(options.image ?? TINY_PNG);
    }
    sendJson(response, 404, { error: "not found" });
  };
}
