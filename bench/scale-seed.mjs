// The seed of `npm run bench -- scale` (bench/bench-scale.mjs): a person's text pieces and library
// files written straight into the server's database (bench/scale-store.mjs) and file store, in one
// transaction, as the app would store them (decision 0079). The database's own triggers keep
// the person's counters (content_count, content_version, text_bytes, media_bytes) and the full-text
// index, exactly as for a write through the app. Nothing runs on import.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

/** Three words the searches look for: in about a fifth of the pieces, in three of them, in none. */
export const COMMON_WORD = "harbour";
export const RARE_WORD = "quillwort";
export const ABSENT_WORD = "zyzzogeton";
/** Pieces carrying RARE_WORD (each person has at least this many pieces in any sensible run). */
export const RARE_PIECES = 3;
/** Rows a statement inserts. */
const BATCH = 1000;

// Ordinary words, none of them a prefix of the three above (a search word also finds words it starts).
const WORDS = (
  "the a of and to in is it that for on with as was at by this be from or an are not have which one " +
  "you had but all were when we there can more if no out so said what up its about into than them " +
  "only other new some could time these two may then first any like now my over such our man me " +
  "even most made after also did many before must through back years where much your way well down " +
  "should because each just those people how too little state good very make world still own see men " +
  "work long get here between both life being under never day same another know while last might us " +
  "great old year off come since against go came right used take three morning garden river window " +
  "letter kitchen meeting draft chapter scene budget launch recipe travel notes idea plan review photo " +
  "music lesson market campaign script interview summary outline sketch video voice project studio"
).split(" ");
/** One piece in this many is pinned (at least one). */
const PIN_EVERY = 500;
const TITLE_OPENERS = ["Notes on", "Draft:", "Ideas for", "Meeting", "Plan for", "Review of", "Script", "Chapter"];

/** A small, seeded random source (mulberry32): the same seed, the same pieces. */
function randomSource(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every piece's text source starts from this plus its place in the list (the same for both people). */
const TEXT_SEED = 0x5eed;

/**
 * The place of piece `i` (0 = seeded first) in the person's list as GET /api/content orders it:
 * pinned first (one in PIN_EVERY, the newest first), then the others, newest first.
 */
function listRank(count) {
  const pinned = Math.ceil(count / PIN_EVERY);
  const lastBlock = Math.floor((count - 1) / PIN_EVERY);
  return (i) =>
    i % PIN_EVERY === 0
      ? pinned - 1 - i / PIN_EVERY
      : pinned + (count - 1 - i) - (lastBlock - Math.floor(i / PIN_EVERY));
}

/** Which pieces carry the rare word: near the start, the middle and the end of the person's list. */
const rareIndexes = (count) => new Set([0, Math.floor(count / 2), count - 1].slice(0, RARE_PIECES));

/** One piece's text: most short, a quarter medium, one in twenty long (sentences of ordinary words). */
function pieceText(random, i, rare) {
  const size = random();
  const words = size < 0.7 ? 5 + Math.floor(random() * 30) : size < 0.95 ? 50 + random() * 150 : 400 + random() * 1100;
  const sentences = [];
  let sentence = [];
  for (let w = 0; w < words; w++) {
    sentence.push(WORDS[Math.floor(random() * WORDS.length)]);
    if (sentence.length > 6 && random() < 0.15) {
      sentences.push(sentence.join(" ").replace(/^./, (c) => c.toUpperCase()) + ".");
      sentence = [];
    }
  }
  if (sentence.length) sentences.push(sentence.join(" ").replace(/^./, (c) => c.toUpperCase()) + ".");
  if (i % 5 === 0) sentences.splice(Math.floor(random() * sentences.length), 0, `The ${COMMON_WORD} at dawn.`);
  if (rare.has(i)) sentences.push(`A ${RARE_WORD} grew there.`);
  const opener = TITLE_OPENERS[Math.floor(random() * TITLE_OPENERS.length)];
  const title = `${opener} ${WORDS[Math.floor(random() * WORDS.length)]} ${WORDS[Math.floor(random() * WORDS.length)]} ${i + 1}`;
  return { title, body: sentences.join(" ") };
}

/**
 * Seeds `count` text pieces for the person through `store` (bench/scale-store.mjs), in one transaction: one in 500 pinned (at least one), one in
 * five carrying COMMON_WORD, RARE_PIECES carrying RARE_WORD, none ABSENT_WORD; updated a minute apart,
 * the newest last. Returns what a correct server must then answer (the counts the searches must find),
 * the UTF-8 bytes of their titles and bodies, and `editedId`: a piece with neither search word, for the
 * autosave to change.
 */
export async function seedPieces(store, userId, count) {
  const rare = rareIndexes(count);
  const rank = listRank(count);
  const start = Date.now() - (count + 10) * 60_000;
  let common = 0;
  let pinned = 0;
  let textBytes = 0;
  let editedId = null;
  const batch = [];
  await store.begin();
  for (let i = 0; i < count; i++) {
    // The text comes from the piece's place in the list, so both people's first pages carry the same
    // texts and a row's ratio compares the same answer (one long piece more on a page is 10 KB more).
    const { title, body } = pieceText(randomSource(TEXT_SEED + rank(i)), i, rare);
    const stamp = new Date(start + i * 60_000).toISOString();
    const pin = i % PIN_EVERY === 0 ? 1 : 0;
    const id = randomUUID();
    if (i === Math.min(1, count - 1)) editedId = id;
    batch.push([id, userId, title, body, pin, stamp, stamp]);
    if (batch.length === BATCH) await store.insertPieces(batch.splice(0));
    textBytes += Buffer.byteLength(title) + Buffer.byteLength(body);
    if (i % 5 === 0) common++;
    pinned += pin;
  }
  if (batch.length) await store.insertPieces(batch);
  await store.commit();
  return { pieces: count, pinned, common, rare: rare.size, absent: 0, textBytes, editedId };
}

function crc32(bytes) {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
function pngChunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
/** A real PNG, `width`×`height` RGB of noise (so a few KB that do not compress). */
function pngBytes(random, width, height) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let i = 0; i < raw.length; i++) raw[i] = i % (width * 3 + 1) === 0 ? 0 : Math.floor(random() * 256);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", zlib.deflateSync(raw)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}
/** An MP3: `frames` MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, 417 bytes each) of silence. */
function mp3Bytes(frames) {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

const PROMPTS = ["A lighthouse at dusk", "Foxes in the snow", "A city of glass", "Autumn market stalls"];

/**
 * Seeds `count` library files for the person: PNG photos, generated PNG images (with a prompt and
 * provenance) and MP3 voices in turn, each row's bytes written to the disk store's layout under
 * `mediaRoot` (objects/<first 2 characters of the key>/<key>, the key being the row's id), so that the
 * library lists them and the export reads them. Returns their number and bytes.
 */
export async function seedFiles(store, mediaRoot, userId, count, seed = 2) {
  const random = randomSource(seed);
  const start = Date.now() - (count + 10) * 60_000;
  let bytes = 0;
  const batch = [];
  await store.begin();
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const stamp = new Date(start + i * 60_000).toISOString();
    // Kind, size and prompt come from the file's place in the library (newest first), so both people's
    // first pages list the same kinds of file with the same fields, as their pieces carry the same texts.
    const place = count - 1 - i;
    const kind = ["photo", "image", "voice"][place % 3];
    const png = kind !== "voice";
    const side = 16 + (place % 5) * 8;
    const data = png ? pngBytes(random, side, side) : mp3Bytes(3 + (place % 8));
    const folder = path.join(mediaRoot, "objects", id.slice(0, 2));
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(folder, id), data);
    const prompt = kind === "image" ? `${PROMPTS[place % PROMPTS.length]}, study ${place}` : null;
    const provenance =
      kind === "image"
        ? JSON.stringify({ style: "watercolour", provider: "bench", model: "seed", source: null })
        : null;
    const name = `${kind}-${String(place).padStart(5, "0")}.${png ? "png" : "mp3"}`;
    const contentType = png ? "image/png" : "audio/mpeg";
    batch.push([
      id,
      userId,
      kind,
      name,
      contentType,
      data.length,
      stamp,
      stamp,
      prompt,
      provenance,
      png ? side : null,
      png ? side : null,
    ]);
    if (batch.length === BATCH) await store.insertFiles(batch.splice(0));
    bytes += data.length;
  }
  if (batch.length) await store.insertFiles(batch);
  await store.commit();
  return { files: count, bytes };
}
