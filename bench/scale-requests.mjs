// The requests of `npm run bench -- scale` (bench/bench-scale.mjs), sent as a signed-in browser sends
// them: the session cookie and `Accept-Encoding: gzip, br` on every request, `Origin` and
// `Sec-Fetch-Site: same-origin` on writes, pages rendered fresh (a new query string per request).
// Also the one-time checks that the server answers each person's counts, pages and searches rightly.
import http from "node:http";
import zlib from "node:zlib";
import { ABSENT_WORD, COMMON_WORD, RARE_WORD } from "./scale-seed.mjs";

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const ACCEPT_ENCODING = "gzip, br";

/**
 * Closes the kept-alive connections, so the next request opens its own: after a pause of the server
 * (a profiler's dump) its idle-connection timer may close one just as it is reused (ECONNRESET).
 */
export function closeConnections() {
  agent.destroy();
}

/** One request; resolves { status, headers, body (the bytes as sent, perhaps compressed), ms }. */
export function send(base, target, { cookie, method = "GET", headers = {}, json, onChunk } = {}) {
  const body = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(target, base),
      {
        method,
        agent,
        headers: {
          Cookie: cookie,
          "Accept-Encoding": ACCEPT_ENCODING,
          ...(method === "GET" ? {} : { Origin: base, "Sec-Fetch-Site": "same-origin" }),
          ...(body ? { "Content-Type": "application/json", "Content-Length": body.length } : {}),
          ...headers,
        },
      },
      (response) => {
        const chunks = [];
        let bytes = 0;
        response.on("data", (chunk) => {
          bytes += chunk.length;
          if (onChunk) onChunk(chunk);
          else chunks.push(chunk);
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode,
            headers: response.headers,
            body: Buffer.concat(chunks),
            bytes,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** The answer's text, decoded from whatever Content-Encoding the server chose. */
export function textOf(answer) {
  const decode = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync }[answer.headers["content-encoding"]];
  return (decode ? decode(answer.body) : answer.body).toString("utf8");
}

const expectStatus = (answer, status, what) => {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${textOf(answer).slice(0, 200)}`);
  return answer;
};

/** The `rel="next"` target of a Link header, or null. */
export function nextLink(headers) {
  const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(headers.link ?? "");
  return match ? match[1] : null;
}

const SEARCH_PAGE = 20;
const LIBRARY_PAGE = 20;

/** `target` with `limit` set: the same rows read under another key than the measured request's. */
const withLimit = (target, limit) => `${target}${target.includes("?") ? "&" : "?"}limit=${limit}`;

/**
 * The rows of the scale table. Each `request(person, n)` sends the n-th request of a turn and throws
 * when the answer is not what a working server sends. `paged` and `search` rows should cost the same
 * for a person of 100 and one of 100,000 pieces (within 1.3×). `warm(person, n)`, sent before each
 * measured request and not measured, reads the same rows under another key (a page one item shorter,
 * another URL): the server's page cache then holds them, as it does for a person using the app, while
 * the measured answer is still read fresh (bench/bench-scale.mjs, decision 0079).
 */
export const ROWS = [
  {
    name: "dashboard",
    label: "`/dashboard`, rendered fresh",
    flat: true,
    request: async (base, person, n) => expectStatus(await send(base, `/dashboard?v=${n}`, person), 200, "/dashboard"),
    warm: async (base, person, n) => expectStatus(await send(base, `/dashboard?w=${n}`, person), 200, "/dashboard"),
  },
  {
    name: "list-first",
    label: "`GET /api/content`, first page",
    flat: true,
    request: async (base, person) => expectStatus(await send(base, "/api/content", person), 200, "the list"),
    warm: async (base, person) =>
      expectStatus(await send(base, withLimit("/api/content", 99), person), 200, "the list"),
  },
  {
    name: "list-last",
    label: "`GET /api/content`, last page",
    flat: true,
    request: async (base, person) => expectStatus(await send(base, person.lastPage, person), 200, "the last page"),
    warm: async (base, person) =>
      expectStatus(await send(base, withLimit(person.lastPage, 99), person), 200, "the last page"),
  },
  ...[
    ["search-common", `search, a word in a fifth (\`${COMMON_WORD}\`)`, COMMON_WORD],
    ["search-rare", `search, a word in three (\`${RARE_WORD}\`)`, RARE_WORD],
    ["search-miss", `search, a word in none (\`${ABSENT_WORD}\`)`, ABSENT_WORD],
  ].map(([name, label, word]) => ({
    name,
    label,
    flat: true,
    // Twenty rows a page: all of the small person's matches for the common word, so both people's
    // answers are the same size and the row compares what finding them costs.
    request: async (base, person) =>
      expectStatus(await send(base, `/api/content?q=${word}&limit=${SEARCH_PAGE}`, person), 200, name),
    warm: async (base, person) =>
      expectStatus(await send(base, `/api/content?q=${word}&limit=${SEARCH_PAGE - 1}`, person), 200, name),
  })),
  {
    name: "autosave",
    label: "editor autosave (cookie + Origin)",
    flat: false,
    request: async (base, person, n) =>
      expectStatus(
        await send(base, `/api/content/${person.editedId}/autosave`, {
          ...person,
          method: "POST",
          json: { title: `Autosaved title ${n}`, body: "An autosaved body. ".repeat(20 + (n % 20)) },
        }),
        200,
        "the autosave",
      ),
  },
  {
    name: "library",
    label: "`GET /api/library`, first page of 20",
    flat: true,
    // Twenty files a page: the small person's whole library, so both answers list as many files.
    request: async (base, person) =>
      expectStatus(await send(base, `/api/library?per_page=${LIBRARY_PAGE}`, person), 200, "the library"),
    warm: async (base, person) =>
      expectStatus(await send(base, `/api/library?per_page=${LIBRARY_PAGE - 1}`, person), 200, "the library"),
  },
];

/** The number of entries a zip says it holds (its end records, zip64 too), read from its last bytes. */
export function zipEntries(tail) {
  const end = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) return null;
  const entries = tail.readUInt16LE(end + 10);
  if (entries !== 0xffff) return entries;
  const locator = end - 20;
  if (locator < 0 || tail.readUInt32LE(locator) !== 0x07064b50) return null;
  const zip64 = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06]), locator);
  return zip64 < 0 ? null : Number(tail.readBigUInt64LE(zip64 + 32));
}

/**
 * The account export, streamed and counted, never held: { bytes, ms, entries }; `onChunk` sees it
 * arrive (the bench samples the server's memory meanwhile).
 */
export async function exportAccount(base, person) {
  let tail = Buffer.alloc(0);
  const answer = await send(base, "/api/account/export", {
    ...person,
    onChunk: (chunk) => {
      tail = Buffer.concat([tail, chunk]);
      if (tail.length > 256 * 1024) tail = tail.subarray(tail.length - 128 * 1024);
    },
  });
  expectStatus(answer, 200, "the export");
  return { bytes: answer.bytes, ms: answer.ms, entries: zipEntries(tail) };
}

/**
 * What the server answers for the person, checked against what was seeded: the list's total and every
 * page walked by `Link rel=next` to the end (every piece once), the searches' totals and results, the
 * library's total, the storage counted for the person. Sets `person.lastPage` (the last page's URL, as the walk reached it) and answers the
 * figures (with `paging`: "cursor" when the server's next links carry a cursor, else "offset").
 */
export async function checkPerson(base, person, seeded) {
  const first = expectStatus(await send(base, "/api/content", person), 200, "the list");
  const total = Number(first.headers["x-total-count"]);
  const firstItems = JSON.parse(textOf(first));
  if (seeded.pinned > 0 && !firstItems[0]?.pinned) throw new Error("the first page does not start with a pinned piece");
  const seen = new Set(firstItems.map((item) => item.id));
  let pages = 1;
  let link = nextLink(first.headers);
  const paging = link && /[?&]cursor=/.test(link) ? "cursor" : "offset";
  person.lastPage = "/api/content";
  while (link) {
    const page = expectStatus(await send(base, link, person), 200, `the page ${link}`);
    for (const item of JSON.parse(textOf(page))) {
      if (seen.has(item.id)) throw new Error(`walking the pages, ${item.id} came twice (at ${link})`);
      seen.add(item.id);
    }
    pages++;
    person.lastPage = link;
    link = nextLink(page.headers);
  }
  const search = async (word) => {
    const answer = expectStatus(await send(base, `/api/content?q=${word}`, person), 200, `search ${word}`);
    const header = answer.headers["x-total-count"];
    return { total: header === undefined ? null : Number(header), onFirstPage: JSON.parse(textOf(answer)).length };
  };
  const library = JSON.parse(textOf(expectStatus(await send(base, "/api/library", person), 200, "the library")));
  const usage = JSON.parse(textOf(expectStatus(await send(base, "/api/library/usage", person), 200, "the usage")));
  return {
    total,
    walked: seen.size,
    pages,
    paging,
    searchCommon: await search(COMMON_WORD),
    searchRare: await search(RARE_WORD),
    searchMiss: await search(ABSENT_WORD),
    libraryTotal: library.total,
    textBytes: usage.text_bytes,
    mediaBytes: usage.used_bytes - usage.text_bytes,
  };
}
