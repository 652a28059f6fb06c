// The requests of the table in docs/performance.md ("What a browser really gets"), for the two benches
// that send them: bench/bench.mjs (autocannon, many people at once) and bench/bench-instructions.mjs
// (one at a time under callgrind, counted in instructions). Each row: its name (BENCH_ONLY, --only), its
// label in bench.mjs's table, and `request(n, item)`: the row's n-th request, { path, method, headers,
// json } (method GET, no headers and no body unless given), `item` the id of the person's piece it reads
// or writes (each bench picks it its own way; rows that name no piece ignore it). Each bench adds what a
// browser sends with every request (the session cookie, `Accept-Encoding: gzip, br`) and with a write
// (`Origin`, `Sec-Fetch-Site: same-origin`, `Content-Type: application/json`).

/** What the German row asks for: German first, English after. */
const GERMAN = "de-DE,de;q=0.9,en;q=0.8";

/** The rows, for people of `pieces` items each (the dashboard's label says how many). */
export function tableRows(pieces) {
  return [
    {
      name: "dashboard",
      label: `\`/dashboard\` (${pieces} items), rendered fresh`,
      request: (n) => ({ path: `/dashboard?v=${n}` }),
    },
    // The same page in German (docs/translating.md): what the language costs a render, against the row above.
    {
      name: "dashboard-de",
      label: "`/dashboard` in German (Accept-Language: de), rendered fresh",
      request: (n) => ({ path: `/dashboard?v=${n}`, headers: { "Accept-Language": GERMAN } }),
    },
    {
      name: "content",
      label: "`/content/{id}`, rendered fresh",
      request: (n, item) => ({ path: `/content/${item}?v=${n}` }),
    },
    {
      name: "dashboard-data",
      label: "`/dashboard.data` (client navigation)",
      request: (n) => ({ path: `/dashboard.data?v=${n}` }),
    },
    {
      name: "autosave",
      label: "editor autosave (cookie + Origin)",
      request: (n, item) => ({
        path: `/api/content/${item}/autosave`,
        method: "POST",
        // Every autosave changes the text, as a person typing does (an unchanged text writes nothing).
        json: { title: `Autosaved title ${n}`, body: "An autosaved body. ".repeat(20) },
      }),
    },
    {
      name: "api",
      label: "`GET /api/content` with the cookie",
      request: () => ({ path: "/api/content" }),
    },
  ];
}
