import http from "node:http";

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * Sends a request with a body by node:http and resolves the server's answer as soon as it has come,
 * even when the server then ends the connection while the body is still being sent (a 413 or 408
 * answered before the body arrived: the server drops the rest for a moment, then closes). fetch
 * (undici) fails the whole call with EPIPE when its write fails after such an answer; on a loaded
 * machine the client is often still writing when that moment ends. A browser reads the answer, as
 * here; a failure before any answer still rejects.
 *
 * Each request has a connection of its own: a kept-alive one that sat idle (a loaded machine took
 * seconds to make the next 25 MB body) may be closed by the server (Node's 5 s keep-alive timeout)
 * just as the next request is written on it, and that request fails with EPIPE, unanswered.
 */
export async function sendForAnswer(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body: BodyInit },
): Promise<Answer> {
  // Request encodes the body as fetch would (FormData as multipart with its boundary).
  const encoded = new Request(url, { method: init.method ?? "POST", headers: init.headers, body: init.body });
  const bytes = Buffer.from(await encoded.arrayBuffer());
  const headers: Record<string, string> = {
    ...Object.fromEntries(encoded.headers),
    "content-length": String(bytes.length),
  };
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(url, { method: encoded.method, headers, agent: false }, (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      const done = () =>
        resolve({
          status: response.statusCode!,
          headers: response.headers,
          text: Buffer.concat(chunks).toString("utf8"),
        });
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", done);
      // The connection ended under the answer's body: what arrived is what there is (the test checks it).
      response.on("close", done);
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    request.end(bytes);
  });
}
