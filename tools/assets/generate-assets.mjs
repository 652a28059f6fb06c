// Composes the bundled sounds and the favicon from code, so every asset we ship is our own.
// Run: node tools/assets/generate-assets.mjs (the outputs are committed; the script is deterministic).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const out = (file) => {
  const full = path.join(root, "public", file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  return full;
};

function wav(samples, sampleRate) {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((value, i) => data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, value)) * 32767), i * 2));
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const noteHz = (semitonesFromA4) => 440 * 2 ** (semitonesFromA4 / 12);

/** Notes: [frequency, start s, duration s]; a soft bell (two partials, exponential decay). */
function chime(notes, seconds, rate = 22050) {
  const samples = new Float32Array(Math.ceil(seconds * rate));
  for (const [hz, start, duration] of notes) {
    for (let i = 0; i < duration * rate; i++) {
      const t = i / rate;
      const envelope = Math.min(1, t * 200) * Math.exp(-t * 7);
      const value = envelope * (0.6 * Math.sin(2 * Math.PI * hz * t) + 0.2 * Math.sin(2 * Math.PI * hz * 2 * t));
      const index = Math.floor(start * rate) + i;
      if (index < samples.length) samples[index] += value * 0.7;
    }
  }
  return wav(samples, rate);
}

fs.writeFileSync(
  out("static/sounds/success.wav"),
  chime(
    [
      [noteHz(3), 0, 0.3],
      [noteHz(10), 0.12, 0.4],
    ],
    0.55,
  ),
);
fs.writeFileSync(
  out("static/sounds/fail.wav"),
  chime(
    [
      [noteHz(-2), 0, 0.3],
      [noteHz(-7), 0.15, 0.45],
    ],
    0.65,
  ),
);
fs.writeFileSync(out("static/sounds/notify.wav"), chime([[noteHz(7), 0, 0.35]], 0.4));

/** A 16 s seamless ambient pad: every partial and modulator completes whole cycles in the loop. */
function ambientLoop(seconds = 16, rate = 22050) {
  const samples = new Float32Array(seconds * rate);
  const chord = [-12, -5, 0, 3, 7, 10]; // A minor 7 spread over two octaves
  chord.forEach((semitones, voice) => {
    // Round each frequency to whole cycles per loop so the end meets the start.
    const hz = Math.round(noteHz(semitones - 12) * seconds) / seconds;
    const lfo = (voice % 3) + 1; // 1..3 slow swells per loop
    for (let i = 0; i < samples.length; i++) {
      const t = i / rate;
      const swell = 0.55 + 0.45 * Math.sin((2 * Math.PI * lfo * t) / seconds + voice);
      samples[i] +=
        (swell * (Math.sin(2 * Math.PI * hz * t) + 0.25 * Math.sin(2 * Math.PI * hz * 2 * t))) / chord.length;
    }
  });
  return wav(
    samples.map((v) => v * 0.5),
    rate,
  );
}
fs.writeFileSync(out("static/ambient.wav"), ambientLoop());

/** 32x32 favicon: a green "play" triangle on a dark rounded square, as an ICO holding a 32-bit BMP. */
function favicon() {
  const size = 32;
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const row = size - 1 - y; // BMP rows run bottom-up
      const offset = (row * size + x) * 4;
      const corner = Math.min(x, size - 1 - x) + Math.min(y, size - 1 - y) < 5;
      const inTriangle = x >= 11 && x <= 24 && Math.abs(y - 15.5) <= (24 - x) * 0.62;
      const [r, g, b, a] = corner ? [0, 0, 0, 0] : inTriangle ? [0, 255, 102, 255] : [8, 20, 14, 255];
      pixels.writeUInt8(b, offset);
      pixels.writeUInt8(g, offset + 1);
      pixels.writeUInt8(r, offset + 2);
      pixels.writeUInt8(a, offset + 3);
    }
  }
  const mask = Buffer.alloc(size * 4); // 1-bit AND mask, 32 px = 4 bytes per row, all zero
  const info = Buffer.alloc(40);
  info.writeUInt32LE(40, 0);
  info.writeInt32LE(size, 4);
  info.writeInt32LE(size * 2, 8); // height counts the mask too
  info.writeUInt16LE(1, 12);
  info.writeUInt16LE(32, 14);
  info.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([info, pixels, mask]);
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header.writeUInt8(size, 6);
  header.writeUInt8(size, 7);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(image.length, 14);
  header.writeUInt32LE(22, 18);
  return Buffer.concat([header, image]);
}
fs.writeFileSync(out("favicon.ico"), favicon());
console.log("assets written to public/");
