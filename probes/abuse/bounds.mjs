// Probes of bounded answers (decision 0039): the API's lists answer a page at a time (100 unless `limit`
// asks for more, at most 500), name the next page in `Link: <…>; rel="next"`, and GET /api/content's
// page ends before 4 MiB of JSON (app/lib/http/paging.server.ts, app/models/content/content-list.server.ts).

const MiB = 1024 * 1024;
const ANSWER_MAX_BYTES = 4 * MiB;

/** The next page's URL from a Link header, or null. */
function nextLink(headers) {
  const match = /<([^>]+)>\s*;\s*rel="next"/.exec(headers.get("link") ?? "");
  return match ? match[1] : null;
}

/** Creates `count` items through the API, 8 at a time; resolves the statuses that were not 201. */
async function fill(person, count, body = "") {
  const failed = [];
  for (let start = 0; start < count; start += 8) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(8, count - start) }, (_, at) =>
        person.request("/api/content", { method: "POST", json: { title: `item ${start + at}`, body } }),
      ),
    );
    for (const answer of answers) if (answer.status !== 201) failed.push(answer.status);
  }
  return failed;
}

const kb = (bytes) => `${(bytes / 1000).toFixed(0)} KB`;

export const probes = [
  {
    name: "GET /api/content without limit after many items",
    expected: `≤ 100 items, Link rel="next" with a cursor, X-Total-Count, answer ≤ ${ANSWER_MAX_BYTES / MiB} MiB`,
    async run(ctx) {
      const person = await ctx.newPerson();
      // 120 items of 20,000 characters (2.4 MB of text: under the set-up's 3 MiB quota, which text counts toward).
      const failed = await fill(person, 120, "w".repeat(20_000));
      if (failed.length) return { ok: false, seen: `creating the items failed: ${failed.slice(0, 5).join(", ")}` };
      const answer = await person.request("/api/content");
      const items = Array.isArray(answer.data) ? answer.data.length : NaN;
      const link = nextLink(answer.headers);
      const total = answer.headers.get("x-total-count");
      const last = link ? await person.request(link) : null;
      const ok =
        answer.status === 200 &&
        items === 100 &&
        total === "120" &&
        /^\/api\/content\?cursor=[\w-]+$/.test(link ?? "") &&
        answer.bytes <= ANSWER_MAX_BYTES &&
        last?.status === 200 &&
        last.data.length === 20 &&
        nextLink(last.headers) === null;
      return {
        ok,
        seen: `${answer.status}: ${items} items, ${kb(answer.bytes)}, X-Total-Count ${total}, Link ${link}; next page ${last?.data?.length} items, no Link: ${last ? nextLink(last.headers) === null : "-"}`,
      };
    },
  },
  {
    name: "GET /api/content?limit=100000 after 510 items",
    expected: 'clamped: 500 items and Link rel="next" to the last 10; limit=abc → 400 {detail}',
    async run(ctx) {
      const person = await ctx.newPerson();
      const failed = await fill(person, 510);
      if (failed.length) return { ok: false, seen: `creating the items failed: ${failed.slice(0, 5).join(", ")}` };
      const answer = await person.request("/api/content?limit=100000");
      const link = nextLink(answer.headers);
      const rest = link ? await person.request(link) : null;
      const bad = await person.request("/api/content?limit=abc");
      const ok =
        answer.status === 200 &&
        answer.data.length === 500 &&
        rest?.data?.length === 10 &&
        bad.status === 400 &&
        typeof bad.data?.detail === "string";
      return {
        ok,
        seen: `${answer.status}: ${answer.data?.length} items, Link ${link} → ${rest?.data?.length} items; limit=abc → ${bad.status} ${JSON.stringify(bad.data)}`,
      };
    },
  },
  {
    name: "GET /api/project without limit after 120 projects",
    expected: '100 projects ({projects}), Link rel="next", X-Total-Count 120',
    async run(ctx) {
      const person = await ctx.newPerson();
      for (let start = 0; start < 120; start += 8) {
        await Promise.all(
          Array.from({ length: 8 }, (_, at) =>
            person.request("/api/project/create", { method: "POST", json: { title: `Project ${start + at}` } }),
          ),
        );
      }
      const answer = await person.request("/api/project");
      const count = answer.data?.projects?.length;
      const link = nextLink(answer.headers);
      const ok =
        answer.status === 200 &&
        count === 100 &&
        answer.headers.get("x-total-count") === "120" &&
        link === "/api/project?offset=100";
      return {
        ok,
        seen: `${answer.status}: ${count} projects, ${kb(answer.bytes)}, X-Total-Count ${answer.headers.get("x-total-count")}, Link ${link}`,
      };
    },
  },
];
