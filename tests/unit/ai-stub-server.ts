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
    const recorded: RecordedRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, json };
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

export function sendJson(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** The recorded multipart body as FormData (to check what was sent). */
export function formDataOf(request: RecordedRequest): Promise<FormData> {
  return new Response(new Uint8Array(request.body), { headers: { "Content-Type": String(request.headers["content-type"]) } }).formData();
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
