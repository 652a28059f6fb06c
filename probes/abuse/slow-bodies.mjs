// Probes of slow bodies (decision 0039), at the settings' defaults: an upload must keep 1 KiB/s on average
// over each 30 s window (UPLOAD_MIN_BYTES_PER_SECOND, UPLOAD_RATE_WINDOW_SECONDS; else 408 and its
// staged bytes go, app/lib/storage/upload.server.ts), and any other request must arrive whole within 30 s
// (REQUEST_DEADLINE_SECONDS; else 408 from the front door, server/request-limits.ts). Each takes about 30 s,
// mostly waiting: both are marked `waits`, so probes/abuse.mjs runs them beside the other probes.
import net from "node:net";

const WINDOW_S = 30;
const DEADLINE_S = 30;

/** One valid MPEG-1 Layer III frame (128 kbps, 44.1 kHz), 417 bytes, `count` times. */
function mp3Frames(count) {
  const frames = Buffer.alloc(417 * count);
  for (let at = 0; at < count; at++) Buffer.from([0xff, 0xfb, 0x90, 0x00]).copy(frames, at * 417);
  return frames;
}

/**
 * Sends `head`, then `start`, then one byte of `rest` every `gapMs` over a plain socket, until the
 * server answers (then it stops sending and reads the answer) or `giveUpMs` pass.
 */
function trickle(url, head, start, rest, { gapMs, giveUpMs }) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const began = performance.now();
    let answer = "";
    let answeredS = null;
    let at = 0;
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(head);
      socket.write(start);
    });
    const timer = setInterval(() => {
      if (answer || socket.destroyed || at >= rest.length) return;
      socket.write(rest.subarray(at, at + 1));
      at++;
    }, gapMs);
    const giveUp = setTimeout(() => socket.destroy(), giveUpMs);
    socket.on("data", (chunk) => {
      if (!answer) answeredS = (performance.now() - began) / 1000;
      answer += chunk.toString("utf8");
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      const detail = /\{"detail":"(?:[^"\\]|\\.)*"\}/.exec(answer)?.[0];
      resolve({
        status,
        detail: detail ? JSON.parse(detail).detail : null,
        answeredS,
        closedS: (performance.now() - began) / 1000,
        sentBytes: start.length + at,
      });
    });
  });
}

const headOf = (ctx, person, path, contentType, length) =>
  `POST ${path} HTTP/1.1\r\nHost: ${new URL(ctx.url).host}\r\nAuthorization: Bearer ${person.token}\r\nX-Forwarded-For: ${person.address}\r\n` +
  `Content-Type: ${contentType}\r\nContent-Length: ${length}\r\n\r\n`;

export const probes = [
  {
    name: "trickling upload",
    waits: true,
    expected: `408 {detail} within the ${WINDOW_S} s rate window (+5 s); nothing kept`,
    async run(ctx) {
      const person = await ctx.newPerson();
      const boundary = "----abuse-trickle";
      const preamble = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="trickle.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`,
      );
      const body = Buffer.concat([preamble, mp3Frames(200), Buffer.from(`\r\n--${boundary}--\r\n`)]);
      // 4 KiB at once, then a byte every 2 s (0.5 B/s against 1 KiB/s).
      const sent = await trickle(
        ctx.url,
        headOf(ctx, person, "/api/voice/upload", `multipart/form-data; boundary=${boundary}`, body.length),
        body.subarray(0, 4096),
        body.subarray(4096),
        {
          gapMs: 2_000,
          giveUpMs: (WINDOW_S + 8) * 1000,
        },
      );
      const files = await person.request("/api/voice/list-files");
      const usage = await person.request("/api/library/usage");
      const kept = files.data?.files?.length ?? NaN;
      const ok =
        sent.status === 408 &&
        typeof sent.detail === "string" &&
        sent.answeredS !== null &&
        sent.answeredS <= WINDOW_S + 5 &&
        kept === 0 &&
        usage.data?.by_kind?.voice === 0;
      return {
        ok,
        seen: `${sent.status || "no answer"} after ${sent.answeredS?.toFixed(1) ?? "-"} s (${sent.sentBytes} bytes sent): ${sent.detail}; files kept ${kept}, voice bytes ${usage.data?.by_kind?.voice}`,
      };
    },
  },
  {
    name: "slow non-upload body",
    waits: true,
    expected: `408 {detail} at the ${DEADLINE_S} s request deadline (+5 s); nothing saved`,
    async run(ctx) {
      const person = await ctx.newPerson();
      const json = Buffer.from(JSON.stringify({ title: "Trickled in", body: "z".repeat(2_000) }));
      // 10 bytes at once, then a byte a second: 2 KB would take over half an hour.
      const sent = await trickle(
        ctx.url,
        headOf(ctx, person, "/api/content", "application/json", json.length),
        json.subarray(0, 10),
        json.subarray(10),
        {
          gapMs: 1_000,
          giveUpMs: (DEADLINE_S + 8) * 1000,
        },
      );
      const list = await person.request("/api/content");
      const saved = Array.isArray(list.data) ? list.data.length : NaN;
      const ok =
        sent.status === 408 &&
        typeof sent.detail === "string" &&
        sent.answeredS !== null &&
        sent.answeredS >= DEADLINE_S - 1 &&
        sent.answeredS <= DEADLINE_S + 5 &&
        saved === 0;
      return {
        ok,
        seen: `${sent.status || "no answer"} after ${sent.answeredS?.toFixed(1) ?? "-"} s (${sent.sentBytes} of ${json.length} bytes sent): ${sent.detail}; items saved ${saved}`,
      };
    },
  },
];
