// Probes of the storage quota (decision 0037): USER_STORAGE_QUOTA_MB=3 (ABUSE_ENV). Bytes in flight hold
// their room, the file's row and the check are one transaction, and text counts toward the same quota
// (app/models/media/storage-quota.server.ts, docs/decisions/0037).
import { tally } from "./client.mjs";

const MiB = 1024 * 1024;
const QUOTA = 3 * MiB;

/** A valid MP4 (an ftyp box, then an mdat box) of `size` bytes: uploads are sniffed. */
function mp4(size) {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write("ftyp", 4, "latin1");
  ftyp.write("isom", 8, "latin1");
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write("isomiso2", 16, "latin1");
  const mdat = Buffer.alloc(size - 24, 7);
  mdat.writeUInt32BE(size - 24, 0);
  mdat.write("mdat", 4, "latin1");
  return Buffer.concat([ftyp, mdat]);
}

const videoForm = (bytes, name) => {
  const form = new FormData();
  form.append("file", new Blob([bytes], { type: "video/mp4" }), name);
  return form;
};

/** A 413 as the quota answers it. */
const quotaRefusal = (answer) =>
  answer.status === 413 &&
  typeof answer.data?.detail === "string" &&
  answer.data.detail.startsWith("Not enough storage left");

const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;

export const probes = [
  {
    name: "quota race: 8 × 0.9 MB video uploads at once under 3 MiB",
    expected: "stored ≤ 3 MiB (3.15 MB), the rest 413 with the quota's detail; no 5xx",
    async run(ctx) {
      const person = await ctx.newPerson();
      const bytes = mp4(900_000);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          person.request("/api/videos/upload", { method: "POST", body: videoForm(bytes, `race-${i}.mp4`) }),
        ),
      );
      const kept = answers.filter((answer) => answer.status === 201).length;
      const refused = answers.filter((answer) => answer.status !== 201);
      const usage = await person.request("/api/library/usage");
      const used = usage.data?.used_bytes ?? NaN;
      const ok = kept >= 1 && used <= QUOTA && used === kept * bytes.length && refused.every(quotaRefusal);
      return {
        ok,
        seen: `${tally(answers.map((answer) => answer.status))}; stored ${mb(used)} (${Math.round((used / QUOTA) * 100)}% of the quota)`,
      };
    },
  },
  {
    name: "text counts: 42 × 100,000-character items under 3 MiB",
    expected:
      "413 with the quota's detail once full (28 one by one, then 14 at once); stored text + media ≤ 3 MiB; no 5xx",
    async run(ctx) {
      const person = await ctx.newPerson();
      const body = "x".repeat(100_000);
      const create = (title) => person.request("/api/content", { method: "POST", json: { title, body } });
      const answers = [];
      for (let i = 0; i < 28; i++) answers.push(await create(`Item ${i}`));
      // The last room, raced for: 14 at once where about 3 fit.
      const racing = await Promise.all(Array.from({ length: 14 }, (_, i) => create(`Race ${i}`)));
      answers.push(...racing);
      const after = await create("One more");
      const usage = await person.request("/api/library/usage");
      const used = usage.data?.used_bytes ?? NaN;
      const text = usage.data?.text_bytes ?? NaN;
      const created = answers.filter((answer) => answer.status === 201).length;
      const refusals = [...answers, after].filter((answer) => answer.status !== 201);
      const ok =
        created >= 28 &&
        refusals.length >= 1 &&
        refusals.every(quotaRefusal) &&
        quotaRefusal(after) &&
        used <= QUOTA &&
        text === used;
      return {
        ok,
        seen: `one by one ${tally(answers.slice(0, 28).map((answer) => answer.status))}, 14 at once ${tally(racing.map((answer) => answer.status))}, then ${after.status}; stored ${mb(used)} (text ${mb(text)}, ${Math.round((used / QUOTA) * 100)}% of the quota)`,
      };
    },
  },
  {
    name: "text and files together: an autosave past the quota beside a video",
    expected: "an autosave that fits is 200, one that passes the quota is 413 and saves nothing; used ≤ 3 MiB",
    async run(ctx) {
      const person = await ctx.newPerson();
      // The video leaves 150,000 bytes.
      const video = await person.request("/api/videos/upload", {
        method: "POST",
        body: videoForm(mp4(QUOTA - 150_000), "big.mp4"),
      });
      const item = await person.request("/api/content", { method: "POST", json: { title: "Notes", body: "short" } });
      const fits = await person.request(`/api/content/${item.data?.id}/autosave`, {
        method: "POST",
        json: { title: "Notes", body: "y".repeat(100_000), updated_at: item.data?.updated_at },
      });
      // 100,000 two-byte characters: 200,000 bytes, past the quota.
      const passes = await person.request(`/api/content/${item.data?.id}/autosave`, {
        method: "POST",
        json: { title: "Notes", body: "é".repeat(100_000), updated_at: fits.data?.updated_at },
      });
      const stored = await person.request(`/api/content/${item.data?.id}`);
      const usage = await person.request("/api/library/usage");
      const used = usage.data?.used_bytes ?? NaN;
      const ok =
        video.status === 201 &&
        item.status === 201 &&
        fits.status === 200 &&
        quotaRefusal(passes) &&
        stored.data?.body === "y".repeat(100_000) &&
        used <= QUOTA;
      return {
        ok,
        seen: `video ${video.status}, autosave that fits ${fits.status}, past the quota ${passes.status}; kept body ${stored.data?.body?.slice(0, 1)}×${stored.data?.body?.length}; used ${mb(used)}`,
      };
    },
  },
];
