// Probes of per-person AI limits (decision 0038): AI_REQUESTS_PER_MINUTE (20) and AI_CONCURRENT_PER_PERSON (2),
// the set-ups' defaults, shared by every AI endpoint and kept in the database.
import { deflateSync } from "node:zlib";
import { tally } from "./client.mjs";

const PER_MINUTE = 20;
const CONCURRENT = 2;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A small PNG data URL (a blue square with a yellow stripe), made without an image library. */
function sketchDataUrl(size = 32) {
  const chunk = (type, data) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = [0];
    for (let x = 0; x < size; x++) row.push(...(Math.abs(x - y) < 3 ? [255, 220, 0] : [20, 40, 120]));
    rows.push(Buffer.from(row));
  }
  const png = Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString("base64")}`;
}

/** A 429 as the limits answer it: Retry-After in whole seconds, and a detail that says when. */
function properRefusal(answer) {
  const retryAfter = answer.headers.get("retry-after");
  return (
    answer.status === 429 &&
    /^\d+$/.test(retryAfter ?? "") &&
    Number(retryAfter) >= 1 &&
    typeof answer.data?.detail === "string" &&
    answer.data.detail.includes(`Try again in ${retryAfter} second`)
  );
}

export const probes = [
  {
    name: "AI flood: 60 assistant messages at once",
    expected: `at most ${PER_MINUTE} answered 200 in the minute, the rest 429 with Retry-After; no 5xx; another person unaffected`,
    async run(ctx) {
      const person = await ctx.newPerson();
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          person.request("/api/assistant/message", {
            method: "POST",
            json: { message: `What did I write about item ${i}?` },
          }),
        ),
      );
      // The rest of the minute, one by one: the person's allowance is spent at 20 in all.
      const later = [];
      for (let i = 0; i < PER_MINUTE + 1; i++)
        later.push(await person.request("/api/assistant/message", { method: "POST", json: { message: "hello" } }));
      const all = [...answers, ...later];
      const answered = all.filter((answer) => answer.status === 200).length;
      const refused = all.filter((answer) => answer.status === 429);
      const badRefusals = refused.filter((answer) => !properRefusal(answer)).length;
      const serverErrors = all.filter((answer) => answer.status >= 500).length;
      const other = await (
        await ctx.newPerson()
      ).request("/api/assistant/message", { method: "POST", json: { message: "hello" } });
      const ok =
        answered >= 1 &&
        answered <= PER_MINUTE &&
        answered + refused.length === all.length &&
        badRefusals === 0 &&
        serverErrors === 0 &&
        later.at(-1).status === 429 &&
        other.status === 200;
      return {
        ok,
        seen: `at once: ${tally(answers.map((a) => a.status))}; then ${PER_MINUTE + 1} one by one: ${tally(later.map((a) => a.status))}; ${answered} answered in the minute; 429s without Retry-After/when: ${badRefusals}; 5xx: ${serverErrors}; another person: ${other.status}`,
      };
    },
  },
  {
    name: "AI limit shared: 21 requests one by one across the AI endpoints",
    expected: `${PER_MINUTE} answered (assistant, stream, voice, sketch, creative tools, AI video), the 21st 429 with Retry-After`,
    async run(ctx) {
      const person = await ctx.newPerson();
      const png = sketchDataUrl();
      const calls = [
        () => person.request("/api/assistant/message", { method: "POST", json: { message: "hi" } }),
        () => person.request("/api/assistant/stream", { method: "POST", json: { message: "hi" } }),
        () => person.request("/api/voice/generate", { method: "POST", json: { text: "Hello" } }),
        () => person.request("/api/ai/sketch2image", { method: "POST", json: { image_data: png, style: "cartoon" } }),
        () =>
          person.request("/api/creative-tools/assistant/generate", { method: "POST", json: { prompt: "a script" } }),
        () => person.request("/api/aivideo/", { method: "POST", json: { prompt: "a clip" } }),
      ];
      const statuses = [];
      for (let i = 0; i < PER_MINUTE; i++) {
        // AI video: at most VIDEO_MAX_ACTIVE_JOBS (3) unfinished jobs, so only the first two rounds start one.
        const call = i % calls.length === 5 && i > 11 ? calls[0] : calls[i % calls.length];
        statuses.push((await call()).status);
      }
      const last = await person.request("/api/creative-tools/voice/generate", {
        method: "POST",
        json: { text: "one more" },
      });
      const ok = statuses.every((status) => status >= 200 && status < 300) && properRefusal(last);
      return {
        ok,
        seen: `first ${PER_MINUTE}: ${tally(statuses)}; 21st (creative-tools voice): ${last.status} Retry-After ${last.headers.get("retry-after")} "${last.data?.detail}"`,
      };
    },
  },
  {
    name: "AI concurrency: 8 slow assistant streams at once",
    expected: `at most ${CONCURRENT} streams answered, the rest 429 with Retry-After; once they end, a new request is answered`,
    async run(ctx) {
      const person = await ctx.newPerson();
      const send = () =>
        fetch(`${ctx.url}/api/assistant/stream`, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${person.token}`,
            "Content-Type": "application/json",
            "X-Forwarded-For": person.address,
            Origin: ctx.url,
          },
          body: JSON.stringify({
            message:
              "Hello! Which tools are there and how do I use the Drawing Pad, the Image Generator and the AI Video?",
          }),
          signal: AbortSignal.timeout(30_000),
        });
      // All sent before any is read: the streams (about a second each) are open together.
      const responses = await Promise.all(Array.from({ length: 8 }, send));
      const answers = await Promise.all(
        responses.map(async (response) => {
          const text = await response.text();
          let data = null;
          try {
            data = JSON.parse(text);
          } catch {
            // an event stream
          }
          return { status: response.status, headers: response.headers, data, done: text.includes("data: [DONE]") };
        }),
      );
      const streamed = answers.filter((answer) => answer.status === 200);
      const refused = answers.filter((answer) => answer.status === 429);
      const after = await person.request("/api/assistant/message", { method: "POST", json: { message: "hello" } });
      const ok =
        streamed.length >= 1 &&
        streamed.length <= CONCURRENT &&
        streamed.every((answer) => answer.done) &&
        refused.length === answers.length - streamed.length &&
        refused.every(properRefusal) &&
        after.status === 200;
      return {
        ok,
        seen: `${tally(answers.map((a) => a.status))}; refusals: "${refused[0]?.data?.detail ?? "none"}"; after they ended: ${after.status}`,
      };
    },
  },
];
