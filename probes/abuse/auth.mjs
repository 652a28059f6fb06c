// Probes of sign-in and feedback under a flood (decision 0040): the per-address login failure budget
// (LOGIN_MAX_FAILURES_PER_ADDRESS, 100 by default: refused before any hash), the bounded password
// hash queue (PASSWORD_HASH_QUEUE_MAX, 16: beyond it 503 with Retry-After) and the feedback budget
// (FEEDBACK_MAX_PER_ADDRESS, 10 an hour), all at the set-ups' defaults, kept in the database.
import { randomUUID } from "node:crypto";
import { tally } from "./client.mjs";

const LOGIN_BUDGET = 100;
const FEEDBACK_BUDGET = 10;

function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const hasRetryAfter = (answer) =>
  /^\d+$/.test(answer.headers.get("retry-after") ?? "") && Number(answer.headers.get("retry-after")) >= 1;
const hasDetail = (answer) => typeof answer.data?.detail === "string" && answer.data.detail.length > 0;
const unknownEmail = () => `flood-${randomUUID().slice(0, 12)}@example.com`;

/** Runs `count` tasks, at most `concurrency` at a time; resolves their results in order. */
async function pooled(count, concurrency, task) {
  const results = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

export const probes = [
  {
    name: "login flood from one address: 200 bad passwords",
    expected: `the first ${LOGIN_BUDGET} checked (401), then 429 with Retry-After before any hash (answers far faster than a check); no 5xx`,
    async run(ctx) {
      const flooder = ctx.stranger();
      const answers = await pooled(200, 4, () =>
        flooder.request("/api/auth/login", {
          method: "POST",
          json: { email: unknownEmail(), password: "wrong password guess" },
          auth: false,
        }),
      );
      const statuses = answers.map((answer) => answer.status);
      const checked = answers.filter((answer) => answer.status === 401);
      const refused = answers.filter((answer) => answer.status === 429);
      const checkedMs = percentile(
        checked.map((answer) => answer.ms),
        50,
      );
      const refusedMs = percentile(
        refused.map((answer) => answer.ms),
        50,
      );
      // Once refused, always refused: every answer after the first 429 is a 429.
      const firstRefusal = statuses.indexOf(429);
      const ok =
        statuses.every((status) => status === 401 || status === 429) &&
        checked.length <= LOGIN_BUDGET &&
        checked.length >= LOGIN_BUDGET - 4 &&
        refused.length === 200 - checked.length &&
        refused.every((answer) => hasRetryAfter(answer) && hasDetail(answer)) &&
        statuses.slice(firstRefusal + 4).every((status) => status === 429) &&
        refusedMs * 2 < checkedMs;
      return {
        ok,
        seen: `${tally(statuses)}; median ${checkedMs.toFixed(0)} ms per 401, ${refusedMs.toFixed(0)} ms per 429; Retry-After ${refused[0]?.headers.get("retry-after") ?? "-"} s`,
      };
    },
  },
  {
    name: "login flood from many addresses",
    expected:
      "401 or 503 with Retry-After, no other 5xx; /api/health p99 < 300 ms during it; a correct login from a fresh address < 3 s during it",
    async run(ctx) {
      // Someone with an account, registered before the flood, signs in from an address of their own in the middle of it.
      const person = ctx.stranger();
      const registered = await person.request("/api/auth/register", {
        method: "POST",
        json: { email: person.email, password: person.password },
        auth: false,
      });
      if (registered.status !== 201) return { ok: false, seen: `register answered ${registered.status}` };

      // /api/health before the flood, for comparison (the machine may be busy with other work).
      const quietMs = [];
      for (let i = 0; i < 20; i++) {
        quietMs.push((await person.request("/api/health", { auth: false })).ms);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }

      const ATTACKERS = 24;
      const FLOOD_MS = 8_000;
      const attackers = Array.from({ length: ATTACKERS }, () => ctx.stranger());
      const answers = [];
      const floodEnds = Date.now() + FLOOD_MS;
      const flood = Promise.all(
        attackers.map(async (attacker) => {
          while (Date.now() < floodEnds) {
            const answer = await attacker.request("/api/auth/login", {
              method: "POST",
              json: { email: unknownEmail(), password: "wrong password guess" },
              auth: false,
            });
            answers.push(answer);
            // A 503 says when to come back; a flood does not listen, but does not spin either.
            if (answer.status === 503) await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }),
      );
      const healthMs = [];
      const healthStatuses = [];
      const health = (async () => {
        while (Date.now() < floodEnds) {
          const answer = await person.request("/api/health", { auth: false });
          healthMs.push(answer.ms);
          healthStatuses.push(answer.status);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const login = await person.request("/api/auth/login", {
        method: "POST",
        json: { email: person.email, password: person.password },
        auth: false,
      });
      await Promise.all([flood, health]);

      const statuses = answers.map((answer) => answer.status);
      const busy = answers.filter((answer) => answer.status === 503);
      const healthP99 = percentile(healthMs, 99);
      const ok =
        statuses.every((status) => status === 401 || status === 503) &&
        busy.every((answer) => hasRetryAfter(answer) && hasDetail(answer)) &&
        healthStatuses.every((status) => status === 200) &&
        healthP99 < 300 &&
        login.status === 200 &&
        login.ms < 3_000;
      return {
        ok,
        seen: `${ATTACKERS} addresses, ${answers.length} attempts in ${FLOOD_MS / 1000} s: ${tally(statuses)}; /api/health p50 ${percentile(healthMs, 50).toFixed(0)} ms, p99 ${healthP99.toFixed(0)} ms (${healthMs.length} polls; before it p99 ${percentile(quietMs, 99).toFixed(0)} ms); correct login ${login.status}${login.status === 200 ? "" : ` "${login.data?.detail ?? ""}"`} in ${login.ms.toFixed(0)} ms`,
      };
    },
  },
  {
    name: "feedback flood from one address",
    expected: `the first ${FEEDBACK_BUDGET} stored (200), then 429 {detail} with Retry-After; another address still 200`,
    async run(ctx) {
      const flooder = ctx.stranger();
      const message = { name: "Flood", email: "flood@example.com", message: "The same message again." };
      const answers = [];
      for (let i = 0; i < 30; i++)
        answers.push(await flooder.request("/api/feedback", { method: "POST", json: message, auth: false }));
      const other = await ctx.stranger().request("/api/feedback", { method: "POST", json: message, auth: false });
      const statuses = answers.map((answer) => answer.status);
      const refused = answers.filter((answer) => answer.status === 429);
      const ok =
        statuses.slice(0, FEEDBACK_BUDGET).every((status) => status === 200) &&
        statuses.slice(FEEDBACK_BUDGET).every((status) => status === 429) &&
        refused.every((answer) => hasRetryAfter(answer) && hasDetail(answer)) &&
        other.status === 200;
      return {
        ok,
        seen: `${tally(statuses)}; Retry-After ${refused[0]?.headers.get("retry-after") ?? "-"} s, "${refused[0]?.data?.detail ?? ""}"; another address ${other.status}`,
      };
    },
  },
];
