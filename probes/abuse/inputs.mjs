// Probes of inputs an attacker controls: picture previews (floods and huge pictures) and a crafted
// backup manifest for `npm run restore`. Provider downloads (a provider's link to another host) are not
// probed here: the set-ups run the offline providers, which download nothing; the unit tests
// (tests/unit/ai-download-pin.test.ts) hold them against local stub servers.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const png = (width, height, seed = 0) =>
  sharp({ create: { width, height, channels: 3, background: { r: (seed * 37) % 256, g: 90, b: 160 } } })
    .png({ compressionLevel: 9 })
    .toBuffer();

async function uploadPhoto(person, bytes, name) {
  const form = new FormData();
  form.append("kind", "photo");
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "application/octet-stream" }), name);
  const saved = await person.request("/api/library/upload", { method: "POST", body: form });
  if (saved.status !== 201) throw new Error(`upload ${name}: ${saved.status} ${JSON.stringify(saved.data)}`);
  return saved.data.id;
}

const sourceOf = (answer) => /thumbnail;desc="(\w+)"/.exec(answer.headers.get("server-timing") ?? "")?.[1] ?? "none";
const count = (values) =>
  Object.entries(values.reduce((all, v) => ({ ...all, [v]: (all[v] ?? 0) + 1 }), {}))
    .map(([k, n]) => `${n}x${k}`)
    .join(" ");

export const probes = [
  {
    name: "thumbnail flood: 20 requests at once for one image",
    expected: "all 200, one computation (Server-Timing computed once, the rest shared/cached), no 5xx, under 15 s",
    async run(ctx) {
      const person = await ctx.newPerson();
      // 12 megapixels: a real decode, small on disk.
      const id = await uploadPhoto(person, await png(4000, 3000), "flood.png");
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 20 }, () => person.request(`/media/${id}/thumbnail`)));
      const ms = performance.now() - started;
      const statuses = answers.map((a) => a.status);
      const sources = answers.map(sourceOf);
      const computed = sources.filter((s) => s === "computed").length;
      const ok =
        statuses.every((s) => s === 200) &&
        computed === 1 &&
        sources.every((s) => ["computed", "shared", "cached"].includes(s)) &&
        ms < 15_000;
      return { ok, seen: `${count(statuses.map(String))}; ${count(sources)}; ${Math.round(ms)} ms` };
    },
  },
  {
    name: "thumbnail flood: 50 different images at once",
    expected: "at most 2 previews made at once per person, 40 wait their turn: 200s then 429 with Retry-After; no 5xx",
    async run(ctx) {
      const person = await ctx.newPerson();
      // 12 megapixels each (one picture, 50 files): each preview a real decode, so a queue builds up.
      const picture = await png(4000, 3000, 1);
      const ids = [];
      for (let i = 0; i < 50; i++) ids.push(await uploadPhoto(person, picture, `many-${i}.png`));
      const started = performance.now();
      const answers = await Promise.all(ids.map((id) => person.request(`/media/${id}/thumbnail`)));
      const ms = performance.now() - started;
      const statuses = answers.map((a) => a.status);
      const refused = answers.filter((a) => a.status === 429);
      const ok =
        statuses.every((s) => s === 200 || s === 429) &&
        refused.length > 0 &&
        refused.every((a) => Number(a.headers.get("retry-after")) > 0 && typeof a.data?.detail === "string") &&
        statuses.filter((s) => s === 200).length >= 42;
      return {
        ok,
        seen: `${count(statuses.map(String))} (429s with Retry-After ${refused[0]?.headers.get("retry-after") ?? "-"}); ${Math.round(ms)} ms`,
      };
    },
  },
  {
    name: "thumbnail of a 30-megapixel picture",
    expected: "422 with a detail (not decoded), never a 5xx",
    async run(ctx) {
      const person = await ctx.newPerson();
      const id = await uploadPhoto(person, await png(6000, 5000), "huge.png");
      const answer = await person.request(`/media/${id}/thumbnail`);
      return {
        ok: answer.status === 422 && /megapixels/.test(answer.data?.detail ?? ""),
        seen: `${answer.status} ${JSON.stringify(answer.data?.detail ?? answer.data).slice(0, 90)} (${Math.round(answer.ms)} ms)`,
      };
    },
  },
  {
    name: "restore: crafted manifest (.. folder, absolute path, symlink)",
    expected: "npm run restore refuses each (exit 2, a message), nothing copied into DATA_DIR",
    async run() {
      const parent = fs.mkdtempSync(path.join(os.tmpdir(), "abuse-restore-"));
      try {
        const outside = path.join(parent, "outside");
        fs.mkdirSync(path.join(outside, "ab"), { recursive: true });
        fs.writeFileSync(path.join(outside, "ab", "abcdefgh1234"), "operator's private file");
        const crafted = (name, edit) => {
          const folder = path.join(parent, name);
          fs.mkdirSync(path.join(folder, "media", "objects", "ab"), { recursive: true });
          fs.writeFileSync(path.join(folder, "database.sqlite"), "SQLite format 3\0");
          const manifest = {
            format: 1,
            database: { engine: "sqlite", file: "database.sqlite" },
            media: { folder: "media/objects", missing: [] },
            session_secret: null,
          };
          edit(manifest, folder);
          fs.writeFileSync(path.join(folder, "manifest.json"), JSON.stringify(manifest));
          return folder;
        };
        const cases = {
          dotdot: crafted("dotdot", (m) => (m.media.folder = "../outside")),
          absolute: crafted("absolute", (m) => (m.database.file = path.join(outside, "ab", "abcdefgh1234"))),
          symlink: crafted("symlink", (_m, folder) =>
            fs.symlinkSync(
              path.join(outside, "ab", "abcdefgh1234"),
              path.join(folder, "media", "objects", "ab", "zzzzzzzz9999"),
            ),
          ),
        };
        const seen = [];
        let ok = true;
        for (const [name, folder] of Object.entries(cases)) {
          const dataDir = path.join(parent, `data-${name}`);
          const result = spawnSync(process.execPath, [path.join(root, "scripts", "admin.mjs"), "restore", folder], {
            cwd: root,
            encoding: "utf8",
            env: {
              ...process.env,
              DATA_DIR: dataDir,
              DATABASE_URL: "",
              DATABASE_FILE: "",
              STORAGE_URL: "",
              SESSION_SECRET: "",
            },
          });
          const copied = fs.existsSync(dataDir) ? fs.readdirSync(dataDir, { recursive: true }).length : 0;
          const refused = result.status === 2 && /\[restore\] refused: /.test(result.stderr);
          ok &&= refused && copied === 0;
          seen.push(`${name}: exit ${result.status}, ${copied} copied`);
        }
        return { ok, seen: seen.join("; ") };
      } finally {
        fs.rmSync(parent, { recursive: true, force: true });
      }
    },
  },
];
