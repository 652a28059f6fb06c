// Composes the three bundled music demos (docs/screens.md#music and docs/api.md#every-call /static/music-demos/demo1..3.mp3) from
// code, so every note we ship is our own: synthesised PCM (oscillators, FM, plucked strings, drums,
// filters, delay, reverb) encoded to MP3 with @breezystack/lamejs.
// Run: node tools/assets/compose-music.mjs (deterministic; the outputs are committed).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Mp3Encoder } from "@breezystack/lamejs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const outDir = path.join(root, "public/static/music-demos");
const RATE = 44100;
const KBPS = 96;
const TAU = Math.PI * 2;

// ---------------------------------------------------------------------------------------------
// Building blocks

/** Seeded PRNG (mulberry32): the same music on every run. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** MIDI note number -> Hz. */
const hz = (midi) => 440 * 2 ** ((midi - 69) / 12);
/** Note names ("C4", "F#2", "Bb3") -> MIDI. */
function note(name) {
  const match = /^([A-G])([#b]?)(-?\d)$/.exec(name);
  const base = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 }[match[1]];
  const accidental = match[2] === "#" ? 1 : match[2] === "b" ? -1 : 0;
  return 12 * (Number(match[3]) + 1) + base + accidental;
}
const chord = (...names) => names.map(note);

class Bus {
  constructor(seconds) {
    this.length = Math.ceil(seconds * RATE);
    this.left = new Float32Array(this.length);
    this.right = new Float32Array(this.length);
  }
  /** Adds a mono signal at `start` seconds with equal-power pan (-1 left .. 1 right). */
  add(signal, start, gain = 1, pan = 0) {
    const offset = Math.round(start * RATE);
    const angle = ((pan + 1) * Math.PI) / 4;
    const [gl, gr] = [Math.cos(angle) * gain * Math.SQRT2, Math.sin(angle) * gain * Math.SQRT2];
    for (let i = 0; i < signal.length; i++) {
      const j = offset + i;
      if (j < 0 || j >= this.length) continue;
      this.left[j] += signal[i] * gl;
      this.right[j] += signal[i] * gr;
    }
  }
  mix(other, gain = 1) {
    for (let i = 0; i < this.length; i++) {
      this.left[i] += other.left[i] * gain;
      this.right[i] += other.right[i] * gain;
    }
  }
}

/** Attack-decay-sustain-release envelope value at time t of a note held for `hold` seconds. */
function adsr(t, hold, a, d, s, r) {
  if (t < a) return t / a;
  if (t < a + d) return 1 - ((t - a) / d) * (1 - s);
  if (t < hold) return s;
  const level = hold < a ? hold / a : hold < a + d ? 1 - ((hold - a) / d) * (1 - s) : s;
  return Math.max(0, level * (1 - (t - hold) / r));
}

/** Band-limited sawtooth (PolyBLEP), phase in cycles. */
function saw(phase, increment) {
  const t = phase % 1;
  let value = 2 * t - 1;
  if (t < increment) {
    const x = t / increment;
    value -= x + x - x * x - 1;
  } else if (t > 1 - increment) {
    const x = (t - 1) / increment;
    value -= x * x + x + x + 1;
  }
  return value;
}

/** RBJ biquad filter with per-sample cutoff changes. */
function biquad(type) {
  let [x1, x2, y1, y2] = [0, 0, 0, 0];
  let coefficients = null;
  let last = "";
  return (input, cutoff, q = 0.707) => {
    const key = `${Math.round(cutoff)}:${q}`;
    if (key !== last) {
      last = key;
      const w = (TAU * Math.min(cutoff, RATE * 0.45)) / RATE;
      const alpha = Math.sin(w) / (2 * q);
      const cos = Math.cos(w);
      let b0, b1, b2;
      if (type === "lowpass") [b0, b1, b2] = [(1 - cos) / 2, 1 - cos, (1 - cos) / 2];
      else if (type === "highpass") [b0, b1, b2] = [(1 + cos) / 2, -(1 + cos), (1 + cos) / 2];
      else [b0, b1, b2] = [alpha, 0, -alpha]; // bandpass
      const a0 = 1 + alpha;
      coefficients = [b0 / a0, b1 / a0, b2 / a0, (-2 * cos) / a0, (1 - alpha) / a0];
    }
    const [c0, c1, c2, a1, a2] = coefficients;
    const output = c0 * input + c1 * x1 + c2 * x2 - a1 * y1 - a2 * y2;
    [x2, x1, y2, y1] = [x1, input, y1, output];
    return output;
  };
}

// ---------------------------------------------------------------------------------------------
// Instruments: each returns a mono Float32Array for one note.

/** Electric piano (two-operator FM with a decaying modulation index). */
function electricPiano(midi, hold, velocity = 0.8) {
  const f = hz(midi);
  const length = Math.ceil((hold + 1.2) * RATE);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const t = i / RATE;
    const index = 1.6 * Math.exp(-t * 3) + 0.25;
    const modulator = Math.sin(TAU * f * t) * index;
    const tine = Math.sin(TAU * f * 7 * t) * 0.08 * Math.exp(-t * 18);
    const env = adsr(t, hold, 0.004, 0.9, 0.35, 1.1);
    out[i] = (Math.sin(TAU * f * t + modulator) + tine) * env * velocity;
  }
  return out;
}

/** Plucked string (Karplus-Strong) with a gentle damping filter. */
function pluck(midi, seconds, rand, brightness = 0.5) {
  const period = Math.max(2, Math.round(RATE / hz(midi)));
  const buffer = new Float32Array(period).map(() => rand() * 2 - 1);
  const length = Math.ceil(seconds * RATE);
  const out = new Float32Array(length);
  let previous = 0;
  for (let i = 0; i < length; i++) {
    const index = i % period;
    const value = buffer[index];
    const next = 0.5 * (value + buffer[(index + 1) % period]);
    buffer[index] = (brightness * value + (1 - brightness) * next) * 0.996;
    previous = previous * 0.35 + value * 0.65;
    out[i] = previous * Math.min(1, (length - i) / (0.05 * RATE));
  }
  return out;
}

/** FM bell: inharmonic ratio, long ring. */
function bell(midi, seconds, velocity = 0.6) {
  const f = hz(midi);
  const length = Math.ceil(seconds * RATE);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const t = i / RATE;
    const env = Math.min(1, t * 400) * Math.exp(-t * (2.2 / seconds) * 2.5);
    const modulator = Math.sin(TAU * f * 3.5 * t) * 2.2 * Math.exp(-t * 1.5);
    out[i] = Math.sin(TAU * f * t + modulator) * env * velocity;
  }
  return out;
}

/** Supersaw pad or brass: detuned sawtooths through a low-pass with its own envelope. */
function saws(
  midis,
  hold,
  {
    detune = 0.12,
    voices = 3,
    attack = 0.6,
    release = 1.5,
    cutoff = 1200,
    sweep = 0,
    q = 0.8,
    decay = 0.5,
    sustain = 0.8,
  } = {},
) {
  const length = Math.ceil((hold + release) * RATE);
  const out = new Float32Array(length);
  const filter = biquad("lowpass");
  const oscillators = [];
  for (const midi of midis) {
    for (let v = 0; v < voices; v++) {
      const spread = voices === 1 ? 0 : (v / (voices - 1) - 0.5) * 2 * detune;
      oscillators.push({ increment: hz(midi + spread) / RATE, phase: (v * 0.37 + midi * 0.11) % 1 });
    }
  }
  const scale = 1 / Math.sqrt(oscillators.length);
  for (let i = 0; i < length; i++) {
    const t = i / RATE;
    let value = 0;
    for (const osc of oscillators) {
      value += saw(osc.phase, osc.increment);
      osc.phase += osc.increment;
    }
    const env = adsr(t, hold, attack, decay, sustain, release);
    out[i] = filter(value * scale, cutoff + sweep * env, q) * env;
  }
  return out;
}

/** Sub bass / bass: sine plus a filtered saw for growl. */
function bass(midi, hold, { growl = 0.5, cutoff = 600, drive = 1.5 } = {}) {
  const f = hz(midi);
  const length = Math.ceil((hold + 0.15) * RATE);
  const out = new Float32Array(length);
  const filter = biquad("lowpass");
  let phase = 0;
  for (let i = 0; i < length; i++) {
    const t = i / RATE;
    const env = adsr(t, hold, 0.005, 0.15, 0.8, 0.1);
    const body = Math.sin(TAU * f * t) + growl * filter(saw(phase, f / RATE), cutoff * (0.6 + env), 1.2);
    phase += f / RATE;
    out[i] = Math.tanh(body * drive) * env;
  }
  return out;
}

/** Lead voice: sawtooth + square blend with delayed vibrato. */
function lead(midi, hold, { cutoff = 2500, vibrato = 0.15 } = {}) {
  const f = hz(midi);
  const length = Math.ceil((hold + 0.35) * RATE);
  const out = new Float32Array(length);
  const filter = biquad("lowpass");
  let phase = 0;
  for (let i = 0; i < length; i++) {
    const t = i / RATE;
    const wobble = 1 + (vibrato / 12) * Math.min(1, Math.max(0, t - 0.25) * 2) * Math.sin(TAU * 5.5 * t) * Math.LN2;
    const increment = (f * wobble) / RATE;
    const square = phase % 1 < 0.5 ? 0.6 : -0.6;
    phase += increment;
    const env = adsr(t, hold, 0.02, 0.2, 0.75, 0.3);
    out[i] = filter(saw(phase, increment) * 0.7 + square * 0.3, cutoff * (0.5 + env), 1.1) * env;
  }
  return out;
}

// Drums ---------------------------------------------------------------------------------------

function kick({ punch = 1, length = 0.45, pitch = 52 } = {}) {
  const n = Math.ceil(length * RATE);
  const out = new Float32Array(n);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const t = i / RATE;
    const f = pitch + 110 * punch * Math.exp(-t * 30);
    phase += f / RATE;
    const click = i < 60 ? (1 - i / 60) * 0.4 * punch : 0;
    out[i] = Math.tanh((Math.sin(TAU * phase) * Math.exp(-t * (6 / length)) + click) * (1 + punch));
  }
  return out;
}

function snare(rand, { length = 0.25, tone = 190, noise = 0.8, bright = 3500 } = {}) {
  const n = Math.ceil(length * RATE);
  const out = new Float32Array(n);
  const filter = biquad("bandpass");
  for (let i = 0; i < n; i++) {
    const t = i / RATE;
    const body = Math.sin(TAU * tone * t) * Math.exp(-t * 25) * 0.6;
    const rattle = filter(rand() * 2 - 1, bright, 0.6) * Math.exp(-t * (5 / length)) * noise * 2;
    out[i] = body + rattle;
  }
  return out;
}

function hat(rand, { length = 0.05, open = false } = {}) {
  const n = Math.ceil((open ? 0.3 : length) * RATE);
  const out = new Float32Array(n);
  const filter = biquad("highpass");
  for (let i = 0; i < n; i++) {
    const t = i / RATE;
    out[i] = filter(rand() * 2 - 1, 7500, 0.7) * Math.exp(-t * (open ? 12 : 70));
  }
  return out;
}

function tom(midi, rand) {
  const n = Math.ceil(0.5 * RATE);
  const out = new Float32Array(n);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const t = i / RATE;
    phase += (hz(midi) * (1 + 0.6 * Math.exp(-t * 20))) / RATE;
    out[i] = Math.tanh((Math.sin(TAU * phase) + (rand() - 0.5) * 0.3 * Math.exp(-t * 40)) * Math.exp(-t * 7) * 1.6);
  }
  return out;
}

function crash(rand, length = 2.5) {
  const n = Math.ceil(length * RATE);
  const out = new Float32Array(n);
  const filter = biquad("highpass");
  for (let i = 0; i < n; i++) {
    const t = i / RATE;
    out[i] = filter(rand() * 2 - 1, 4500, 0.5) * Math.exp(-t * (3 / length)) * 0.8;
  }
  return out;
}

// Effects -------------------------------------------------------------------------------------

/** Freeverb-style stereo reverb, returned as a new bus (wet only). */
function reverb(bus, { room = 0.84, damp = 0.3, width = 1 } = {}) {
  const combs = [1116, 1188, 1277, 1356, 1422, 1491, 1557, 1617];
  const allpasses = [556, 441, 341, 225];
  const channel = (input, spread) => {
    const out = new Float32Array(input.length);
    const state = combs.map((size) => ({ buffer: new Float32Array(size + spread), index: 0, store: 0 }));
    const aps = allpasses.map((size) => ({ buffer: new Float32Array(size + spread), index: 0 }));
    for (let i = 0; i < input.length; i++) {
      const x = input[i] * 0.015;
      let sum = 0;
      for (const comb of state) {
        const y = comb.buffer[comb.index];
        comb.store = y * (1 - damp) + comb.store * damp;
        comb.buffer[comb.index] = x + comb.store * room;
        comb.index = (comb.index + 1) % comb.buffer.length;
        sum += y;
      }
      for (const ap of aps) {
        const buffered = ap.buffer[ap.index];
        ap.buffer[ap.index] = sum + buffered * 0.5;
        ap.index = (ap.index + 1) % ap.buffer.length;
        sum = buffered - sum;
      }
      out[i] = sum;
    }
    return out;
  };
  const wet = new Bus(bus.length / RATE);
  const left = channel(bus.left, 0);
  const right = channel(bus.right, 23);
  for (let i = 0; i < bus.length; i++) {
    wet.left[i] = left[i] * (0.5 + width / 2) + right[i] * (0.5 - width / 2);
    wet.right[i] = right[i] * (0.5 + width / 2) + left[i] * (0.5 - width / 2);
  }
  return wet;
}

/** Ping-pong feedback delay (wet only). */
function pingPong(bus, seconds, feedback = 0.4, tone = 3000) {
  const wet = new Bus(bus.length / RATE);
  const d = Math.round(seconds * RATE);
  const lowL = biquad("lowpass");
  const lowR = biquad("lowpass");
  for (let i = 0; i < bus.length; i++) {
    const fromL = i >= d ? wet.right[i - d] * feedback + bus.left[i - d] : 0;
    const fromR = i >= d ? wet.left[i - d] * feedback + bus.right[i - d] * 0.3 : 0;
    wet.left[i] = lowL(fromL, tone);
    wet.right[i] = lowR(fromR, tone);
  }
  return wet;
}

/**
 * The "8D" effect: the signal circles the listener's head. Level difference (equal-power pan),
 * time difference (the far ear hears it up to 0.6 ms later) and a darker sound when it is behind.
 */
function orbit(bus, secondsPerTurn) {
  const out = new Bus(bus.length / RATE);
  const maxDelay = Math.round(0.0006 * RATE);
  const shadowL = biquad("lowpass");
  const shadowR = biquad("lowpass");
  for (let i = 0; i < bus.length; i++) {
    const angle = (TAU * i) / (secondsPerTurn * RATE);
    const side = Math.sin(angle); // -1 left .. 1 right
    const behind = Math.max(0, -Math.cos(angle)); // 0 in front .. 1 behind
    const pan = ((side + 1) * Math.PI) / 4;
    const delayL = Math.round(Math.max(0, side) * maxDelay);
    const delayR = Math.round(Math.max(0, -side) * maxDelay);
    const sample = (offset) => (i - offset >= 0 ? (bus.left[i - offset] + bus.right[i - offset]) / 2 : 0);
    const cutoff = 16000 - behind * 12500;
    out.left[i] = shadowL(sample(delayL), cutoff) * Math.cos(pan) * Math.SQRT2;
    out.right[i] = shadowR(sample(delayR), cutoff) * Math.sin(pan) * Math.SQRT2;
  }
  return out;
}

/** DC blocking, fades, soft limiting and normalising to -1 dBFS. */
function master(bus, { fadeIn = 0.05, fadeOut = 3 } = {}) {
  const blockL = biquad("highpass");
  const blockR = biquad("highpass");
  let peak = 0;
  for (let i = 0; i < bus.length; i++) {
    bus.left[i] = blockL(bus.left[i], 25);
    bus.right[i] = blockR(bus.right[i], 25);
    const t = i / RATE;
    const end = bus.length / RATE - t;
    const fade = Math.min(1, t / fadeIn) * Math.min(1, end / fadeOut);
    bus.left[i] = Math.tanh(bus.left[i] * 0.9) * fade;
    bus.right[i] = Math.tanh(bus.right[i] * 0.9) * fade;
    peak = Math.max(peak, Math.abs(bus.left[i]), Math.abs(bus.right[i]));
  }
  const gain = peak > 0 ? 10 ** (-1 / 20) / peak : 1;
  for (let i = 0; i < bus.length; i++) {
    bus.left[i] *= gain;
    bus.right[i] *= gain;
  }
  return bus;
}

function encodeMp3(bus) {
  const encoder = new Mp3Encoder(2, RATE, KBPS);
  const toPcm = (channel) => {
    const pcm = new Int16Array(channel.length);
    for (let i = 0; i < channel.length; i++) pcm[i] = Math.round(Math.max(-1, Math.min(1, channel[i])) * 32767);
    return pcm;
  };
  const [left, right] = [toPcm(bus.left), toPcm(bus.right)];
  const chunks = [];
  for (let i = 0; i < left.length; i += 1152) {
    const chunk = encoder.encodeBuffer(left.subarray(i, i + 1152), right.subarray(i, i + 1152));
    if (chunk.length) chunks.push(Buffer.from(chunk));
  }
  chunks.push(Buffer.from(encoder.flush()));
  return Buffer.concat(chunks);
}

// ---------------------------------------------------------------------------------------------
// 1. 8d Nirvana Stream: lo-fi electric piano chords, plucked arpeggios and a soft bell melody,
//    circling the head every 8 seconds, over a lazy swung beat. 84 BPM, 12 bars.

function nirvanaStream() {
  const rand = random(8);
  const beat = 60 / 84;
  const bars = 12;
  const seconds = bars * 4 * beat + 2.5;
  const music = new Bus(seconds);
  const drums = new Bus(seconds);
  const progression = [
    chord("F3", "A3", "C4", "E4"), // Fmaj7
    chord("E3", "G3", "B3", "D4"), // Em7
    chord("D3", "F3", "A3", "C4"), // Dm7
    chord("C3", "E3", "G3", "B3"), // Cmaj7
  ];
  const roots = ["F2", "E2", "D2", "C2"].map(note);
  const melody = [
    // [bar, beat, note, beats]
    [4, 0, "E5", 1.5],
    [4, 1.5, "D5", 0.5],
    [4, 2, "C5", 2],
    [5, 0, "B4", 1],
    [5, 1, "D5", 1],
    [5, 2, "G5", 2],
    [6, 0, "A5", 1.5],
    [6, 1.5, "G5", 0.5],
    [6, 2, "F5", 1],
    [6, 3, "E5", 1],
    [7, 0, "E5", 3],
    [7, 3, "G4", 1],
    [8, 0, "C5", 1],
    [8, 1, "E5", 1],
    [8, 2, "A5", 1.5],
    [8, 3.5, "G5", 0.5],
    [9, 0, "G5", 2],
    [9, 2, "B4", 1],
    [9, 3, "D5", 1],
    [10, 0, "F5", 1],
    [10, 1, "E5", 1],
    [10, 2, "D5", 1],
    [10, 3, "C5", 1],
    [11, 0, "E5", 4],
  ];
  const swing = (position) => (position % 1 === 0.5 ? 0.08 * beat : 0);

  for (let bar = 0; bar < bars; bar++) {
    const start = bar * 4 * beat;
    const harmony = progression[bar % 4];
    // Chords: a soft stab on beat 1 and an anticipation on the "and" of 2.
    for (const midi of harmony) {
      music.add(electricPiano(midi, beat * 2.2, 0.45), start, 0.3, 0);
      music.add(electricPiano(midi + 12, beat * 0.9, 0.25), start + 2.5 * beat + swing(2.5), 0.2, 0);
    }
    // Plucked arpeggio in eighths (from bar 2).
    if (bar >= 1) {
      const pattern = [0, 2, 1, 3, 2, 1, 3, 2];
      pattern.forEach((index, step) => {
        const position = step / 2;
        music.add(
          pluck(harmony[index] + 12, beat * 1.5, rand, 0.45),
          start + position * beat + swing(position),
          0.22,
          0,
        );
      });
    }
    // Bass: root on 1, fifth-ish on the "and" of 3.
    music.add(bass(roots[bar % 4], beat * 1.6, { growl: 0.15, cutoff: 400, drive: 1.1 }), start, 0.45);
    music.add(
      bass(roots[bar % 4] + 7, beat * 0.8, { growl: 0.15, cutoff: 400, drive: 1.1 }),
      start + 2.5 * beat + swing(2.5),
      0.3,
    );
    // Lazy beat from bar 2: kick 1 and the "and" of 2, snare 2 and 4, swung hats.
    if (bar >= 1 && bar < bars - 1) {
      drums.add(kick({ punch: 0.6, length: 0.4 }), start, 0.55);
      drums.add(kick({ punch: 0.5, length: 0.35 }), start + 1.5 * beat + swing(1.5), 0.4);
      drums.add(snare(rand, { length: 0.22, tone: 180, noise: 0.5, bright: 2500 }), start + beat, 0.3, -0.1);
      drums.add(snare(rand, { length: 0.22, tone: 180, noise: 0.5, bright: 2500 }), start + 3 * beat, 0.3, -0.1);
      for (let step = 0; step < 8; step++) {
        const position = step / 2;
        drums.add(hat(rand), start + position * beat + swing(position), step % 2 ? 0.08 : 0.13, 0.3);
      }
    }
  }
  for (const [bar, position, name, beats] of melody) {
    music.add(bell(note(name), beats * beat + 1.5, 0.5), bar * 4 * beat + position * beat + swing(position), 0.35, 0);
  }
  // Vinyl-like crackle for warmth.
  const crackle = new Float32Array(music.length);
  for (let i = 0; i < crackle.length; i++) if (rand() < 0.0006) crackle[i] = (rand() - 0.5) * 0.5;
  drums.add(crackle, 0, 0.25);

  const spatial = orbit(music, 8);
  spatial.mix(reverb(spatial, { room: 0.8, damp: 0.4 }), 0.9);
  spatial.mix(pingPong(spatial, beat * 0.75, 0.35, 2500), 0.25);
  const drumOrbit = orbit(drums, 16);
  spatial.mix(drumOrbit, 0.9);
  spatial.mix(drums, 0.25);
  return master(spatial, { fadeOut: 2.5 });
}

// ---------------------------------------------------------------------------------------------
// 2. Deep Abstract Ambient: slow swelling pads in C# minor over a sub drone, distant bells from the
//    pentatonic scale, and filtered noise like wind. About 36 seconds.

function deepAmbient() {
  const rand = random(2);
  const seconds = 36;
  const bus = new Bus(seconds);
  const chords = [
    [0, chord("C#3", "G#3", "B3", "E4", "D#4")], // C#m(add9)
    [9, chord("A2", "E3", "G#3", "C#4", "B3")], // Amaj9
    [18, chord("E3", "B3", "D#4", "G#4", "F#4")], // Emaj9
    [27, chord("F#2", "C#3", "E3", "A3", "B3")], // F#m11
  ];
  for (const [start, notes] of chords) {
    const pad = saws(notes, 8.5, {
      detune: 0.18,
      voices: 3,
      attack: 3.5,
      release: 4,
      cutoff: 500,
      sweep: 900,
      q: 0.9,
      decay: 3,
      sustain: 0.9,
    });
    bus.add(pad, start, 0.55, -0.2);
    const high = saws(
      notes.map((n) => n + 12),
      8.5,
      { detune: 0.1, voices: 2, attack: 5, release: 4, cutoff: 1200, sweep: 1500, q: 1.4, decay: 2, sustain: 1 },
    );
    bus.add(high, start + 1, 0.16, 0.35);
  }
  // Sub drone: C#1 and G#1 slowly breathing.
  const drone = new Float32Array(Math.ceil(seconds * RATE));
  for (let i = 0; i < drone.length; i++) {
    const t = i / RATE;
    const breath = 0.6 + 0.4 * Math.sin((TAU * t) / 12 - Math.PI / 2);
    drone[i] =
      (Math.sin(TAU * hz(note("C#1")) * t) * 0.8 + Math.sin(TAU * hz(note("G#1")) * t) * 0.35) *
      breath *
      Math.min(1, t / 4);
  }
  bus.add(drone, 0, 0.5);
  // Bells: sparse, random notes of C# minor pentatonic, panned wide.
  const pentatonic = ["C#5", "E5", "F#5", "G#5", "B5", "C#6", "E6"].map(note);
  let time = 2.5;
  while (time < seconds - 5) {
    bus.add(bell(pentatonic[Math.floor(rand() * pentatonic.length)], 4, 0.35), time, 0.3, rand() * 1.6 - 0.8);
    time += 1.2 + rand() * 2.6;
  }
  // Wind: noise through a slowly sweeping band-pass.
  const wind = new Float32Array(drone.length);
  const band = biquad("bandpass");
  for (let i = 0; i < wind.length; i++) {
    const t = i / RATE;
    const cutoff = 500 + 1400 * (0.5 + 0.5 * Math.sin((TAU * t) / 14));
    wind[i] = band(rand() * 2 - 1, cutoff, 2.5) * (0.5 + 0.5 * Math.sin((TAU * t) / 9)) * Math.min(1, t / 6);
  }
  bus.add(wind, 0, 0.35, 0.1);
  const wet = reverb(bus, { room: 0.92, damp: 0.5 });
  bus.mix(pingPong(bus, 0.9, 0.55, 1800), 0.35);
  bus.mix(wet, 1.4);
  return master(bus, { fadeIn: 1.5, fadeOut: 5 });
}

// ---------------------------------------------------------------------------------------------
// 3. Epic Angry Uplifting: 140 BPM in D minor. Toms and a string ostinato build up, then full drums,
//    driving bass, brass chords and an angry lead (i-VI-III-VII); the last part lifts into a major
//    feel with the lead an octave up, ending on a D major chord.

function epicUplifting() {
  const rand = random(3);
  const beat = 60 / 140;
  const bar = 4 * beat;
  const bars = 20;
  const seconds = bars * bar + 3;
  const bus = new Bus(seconds);
  const drums = new Bus(seconds);
  const minor = [
    chord("D3", "F3", "A3"), // Dm
    chord("Bb2", "D3", "F3"), // Bb
    chord("F3", "A3", "C4"), // F
    chord("C3", "E3", "G3"), // C
  ];
  const lift = [
    chord("Bb2", "D3", "F3"), // Bb
    chord("C3", "E3", "G3"), // C
    chord("D3", "F3", "A3"), // Dm
    chord("F3", "A3", "C4"), // F
  ];
  const angryLead = [
    // per 4-bar phrase: [beat offset, note, beats]
    [0, "D5", 1],
    [1, "D5", 0.5],
    [1.5, "F5", 0.5],
    [2, "A5", 1.5],
    [3.5, "G5", 0.5],
    [4, "F5", 1],
    [5, "D5", 1],
    [6, "Bb4", 2],
    [8, "C5", 1],
    [9, "F5", 1],
    [10, "A5", 1],
    [11, "C6", 1],
    [12, "Bb5", 1.5],
    [13.5, "A5", 0.5],
    [14, "G5", 1],
    [15, "E5", 1],
  ];
  const soaringLead = [
    [0, "F5", 1.5],
    [1.5, "G5", 0.5],
    [2, "A5", 2],
    [4, "G5", 1.5],
    [5.5, "A5", 0.5],
    [6, "C6", 2],
    [8, "D6", 2],
    [10, "C6", 1],
    [11, "A5", 1],
    [12, "A5", 1],
    [13, "C6", 1],
    [14, "F6", 2],
  ];

  for (let b = 0; b < bars; b++) {
    const start = b * bar;
    const section = b < 4 ? "intro" : b < 12 ? "fight" : b < 19 ? "lift" : "end";
    const harmony = (section === "lift" ? lift : minor)[b % 4];
    if (section === "end") break;

    // String ostinato: sixteenth notes on the root and fifth, accented.
    for (let step = 0; step < 16; step++) {
      const midi = harmony[0] + (step % 4 === 2 ? 7 : step % 8 === 7 ? 12 : 0) + 12;
      const accent = step % 4 === 0 ? 1 : 0.6;
      bus.add(
        saws([midi], (beat / 4) * 0.8, {
          detune: 0.08,
          voices: 2,
          attack: 0.005,
          release: 0.06,
          cutoff: 900,
          sweep: 1800,
          q: 1,
          decay: 0.08,
          sustain: 0.4,
        }),
        start + (step * beat) / 4,
        0.13 * accent,
        step % 2 ? 0.35 : -0.35,
      );
    }

    if (section === "intro") {
      // Toms on every beat, growing; a snare roll into the drop.
      for (let k = 0; k < 4; k++)
        drums.add(tom(note(k % 2 ? "A1" : "D2"), rand), start + k * beat, 0.25 + b * 0.08, k % 2 ? 0.3 : -0.3);
      if (b === 3)
        for (let s = 0; s < 16; s++)
          drums.add(snare(rand, { length: 0.12 }), start + (s * beat) / 4, 0.08 + s * 0.015, 0);
      continue;
    }

    // Brass chords: stabs on 1 and the "and" of 2, a held chord on 3.
    const brass = (hold, at, gain) =>
      bus.add(
        saws(
          harmony.map((n) => n + 12),
          hold,
          {
            detune: 0.14,
            voices: 3,
            attack: 0.03,
            release: 0.25,
            cutoff: 700,
            sweep: 2600,
            q: 1.2,
            decay: 0.3,
            sustain: 0.6,
          },
        ),
        at,
        gain,
        0,
      );
    brass(beat * 0.5, start, 0.5);
    brass(beat * 0.5, start + 1.5 * beat, 0.42);
    brass(beat * 1.8, start + 2 * beat, 0.45);
    // Big pad underneath for width.
    bus.add(
      saws(harmony, bar * 0.95, {
        detune: 0.2,
        voices: 3,
        attack: 0.2,
        release: 0.4,
        cutoff: 1500,
        sweep: 800,
        q: 0.8,
      }),
      start,
      0.22,
      0,
    );

    // Driving eighth-note bass.
    for (let e = 0; e < 8; e++)
      bus.add(
        bass(harmony[0] - 12, beat * 0.42, { growl: 0.9, cutoff: 900, drive: 2.5 }),
        start + (e * beat) / 2,
        e % 2 ? 0.34 : 0.42,
      );

    // Drums: four on the floor, snare on 2 and 4 (doubled in the lift), eighth hats, crash on phrase starts.
    for (let k = 0; k < 4; k++) drums.add(kick({ punch: 1.2, length: 0.35, pitch: 48 }), start + k * beat, 0.7);
    drums.add(snare(rand, { length: 0.3, tone: 200, noise: 1, bright: 3000 }), start + beat, 0.5);
    drums.add(snare(rand, { length: 0.3, tone: 200, noise: 1, bright: 3000 }), start + 3 * beat, 0.5);
    if (section === "lift") drums.add(snare(rand, { length: 0.15, noise: 0.8 }), start + 3.5 * beat, 0.22);
    for (let e = 0; e < 8; e++)
      drums.add(
        hat(rand, { open: e % 2 === 1 && section === "lift" }),
        start + (e * beat) / 2,
        e % 2 ? 0.12 : 0.18,
        0.25,
      );
    if ((b - 4) % 4 === 0) drums.add(crash(rand), start, 0.28, -0.2);
  }

  // Leads: the angry phrase twice in the fight, the soaring one an octave up in the lift.
  for (const phraseStart of [4, 8]) {
    for (const [at, name, beats] of angryLead)
      bus.add(lead(note(name), beats * beat * 0.92, { cutoff: 2200 }), phraseStart * bar + at * beat, 0.3, 0.1);
  }
  for (const phraseStart of [12, 16]) {
    for (const [at, name, beats] of soaringLead) {
      if (phraseStart === 16 && at >= 12) continue;
      bus.add(
        lead(note(name), beats * beat * 0.95, { cutoff: 3200, vibrato: 0.25 }),
        phraseStart * bar + at * beat,
        0.3,
        0.1,
      );
    }
  }
  // Final hit: D major (the Picardy third) with a crash, ringing out.
  const end = 19 * bar;
  bus.add(
    saws(chord("D3", "F#3", "A3", "D4", "F#4"), bar * 1.2, {
      detune: 0.15,
      voices: 3,
      attack: 0.02,
      release: 2.2,
      cutoff: 900,
      sweep: 2500,
      q: 1,
    }),
    end,
    0.55,
    0,
  );
  bus.add(bass(note("D1"), bar * 1.4, { growl: 0.6, cutoff: 600, drive: 2 }), end, 0.5);
  bus.add(lead(note("D6"), bar * 1.2, { cutoff: 3500, vibrato: 0.3 }), end, 0.28, 0.1);
  drums.add(kick({ punch: 1.4, length: 0.8, pitch: 45 }), end, 0.8);
  drums.add(crash(rand, 3), end, 0.45, 0.2);
  drums.add(tom(note("D2"), rand), end, 0.5);

  bus.mix(reverb(bus, { room: 0.78, damp: 0.35 }), 0.8);
  bus.mix(pingPong(bus, beat * 0.75, 0.3, 3500), 0.15);
  bus.mix(drums, 1);
  bus.mix(reverb(drums, { room: 0.6, damp: 0.5 }), 0.35);
  return master(bus, { fadeOut: 2.5 });
}

// ---------------------------------------------------------------------------------------------

fs.mkdirSync(outDir, { recursive: true });
const tracks = [
  ["demo1.mp3", "8d Nirvana Stream", nirvanaStream],
  ["demo2.mp3", "Deep Abstract Ambient", deepAmbient],
  ["demo3.mp3", "Epic Angry Uplifting", epicUplifting],
];
for (const [file, title, compose] of tracks) {
  const started = Date.now();
  const bus = compose();
  const mp3 = encodeMp3(bus);
  fs.writeFileSync(path.join(outDir, file), mp3);
  const seconds = (bus.length / RATE).toFixed(1);
  console.log(
    `${file}  ${title.padEnd(22)} ${seconds} s  ${(mp3.length / 1024).toFixed(0)} KiB  (${Date.now() - started} ms)`,
  );
}
