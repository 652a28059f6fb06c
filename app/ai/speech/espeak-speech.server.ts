import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { ProviderError } from "~/ai/errors.server";
import { ESPEAK_ENGLISH_VOICE, ESPEAK_LANGUAGE_VOICES } from "~/common/assistant/voice-options";
import type { SpeechAudio, SpeechProvider, Voice } from "./speech.server";
import { encodeWav } from "./wav";

/**
 * Offline speech: eSpeak-NG compiled to WebAssembly (@echogarden/espeak-ng-emscripten, GPL-3.0; see
 * docs/decisions). Synthesis is synchronous inside the engine (about 0.4 s per 1,000 characters), so
 * the engine lives in one worker thread: the server keeps answering other requests meanwhile.
 * The engine gives 16-bit samples at 22,050 Hz; we wrap them in a WAV file.
 */
export const ESPEAK_PROVIDER_ID = "espeak-ng";

/**
 * A sensible handful of the engine's voices: its English variants, American first, then the voices of
 * the studio's other screen languages (app/common/assistant/voice-options.ts), under the studio's names.
 */
const PREFERRED_ORDER = ["gmw/en-US", "gmw/en", "gmw/en-GB-x-rp", "gmw/en-GB-scotland", "gmw/en-029", "gmw/en-US-nyc"];
const REQUEST_TIMEOUT_MS = 30_000;
/** Requests waiting for the engine beyond this are refused (the API answers 502). */
const MAX_WAITING = 32;
/** Words per minute; eSpeak's default of 175 sounds hurried. */
const SPEAKING_RATE = 160;

// Runs inside the worker (CommonJS, eval). The engine module is imported by file URL so that this
// works the same from the server build and from the sources.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
let engine = null;
function getEngine() {
  engine ??= import(workerData.moduleUrl).then(async ({ default: initialise }) => {
    const module = await initialise();
    return new module.eSpeakNGWorker();
  });
  return engine;
}
parentPort.on("message", async (request) => {
  try {
    const espeak = await getEngine();
    if (request.type === "voices") {
      const voices = espeak.list_voices().map((voice) => ({ identifier: voice.identifier, name: voice.name }));
      parentPort.postMessage({ id: request.id, voices });
      return;
    }
    espeak.set_voice(request.voice);
    espeak.set_rate(request.rate);
    espeak.set_pitch(50);
    const chunks = [];
    let total = 0;
    espeak.synthesize(request.text, (samples) => {
      // The engine reuses its buffer: copy each chunk.
      if (samples && samples.length) { chunks.push(samples.slice()); total += samples.length; }
    });
    const all = new Int16Array(total);
    let offset = 0;
    for (const chunk of chunks) { all.set(chunk, offset); offset += chunk.length; }
    parentPort.postMessage({ id: request.id, samples: all, sampleRate: espeak.get_samplerate() }, [all.buffer]);
  } catch (error) {
    parentPort.postMessage({ id: request.id, error: String((error && error.message) || error) });
  }
});
`;

interface EngineVoice {
  identifier: string;
  name: string;
}
type WorkerAnswer = { id: number; error?: string; voices?: EngineVoice[]; samples?: Int16Array; sampleRate?: number };

/** eSpeak reads SSML-like markup in its input; spoken text is escaped so it is only ever read aloud. */
export function escapeForEspeak(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

class EspeakWorker {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending = new Map<number, { resolve: (answer: WorkerAnswer) => void; reject: (error: Error) => void }>();
  private queue: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  private start(): Worker {
    if (this.worker) return this.worker;
    const moduleUrl = pathToFileURL(createRequire(import.meta.url).resolve("@echogarden/espeak-ng-emscripten")).href;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { moduleUrl } });
    worker.unref();
    worker.on("message", (answer: WorkerAnswer) => {
      const entry = this.pending.get(answer.id);
      if (!entry) return;
      this.pending.delete(answer.id);
      if (answer.error) entry.reject(new Error(answer.error));
      else entry.resolve(answer);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const entry of this.pending.values()) entry.reject(error);
      this.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`speech engine stopped (${code})`)));
    this.worker = worker;
    return worker;
  }

  /**
   * Requests run one at a time (the engine is single-threaded anyway), so a request's timeout only
   * counts its own synthesis: a timeout then means a stuck engine, which is replaced. A long queue is
   * refused rather than left to grow.
   */
  request(message: Record<string, unknown>, timeoutMs = REQUEST_TIMEOUT_MS): Promise<WorkerAnswer> {
    if (this.waiting >= MAX_WAITING) return Promise.reject(new Error("speech engine is busy"));
    this.waiting++;
    const run = this.queue.then(() => this.send(message, timeoutMs));
    this.queue = run.catch(() => {}).finally(() => this.waiting--);
    return run;
  }

  private send(message: Record<string, unknown>, timeoutMs: number): Promise<WorkerAnswer> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error("speech engine did not answer in time"));
        // A stuck engine is replaced on the next request.
        void worker.terminate();
      }, timeoutMs);
      timer.unref();
      this.pending.set(id, {
        resolve: (answer) => (clearTimeout(timer), resolve(answer)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      worker.postMessage({ ...message, id });
    });
  }
}

const engine = new EspeakWorker();
let voicesPromise: Promise<Voice[]> | null = null;

export class EspeakSpeech implements SpeechProvider {
  readonly id = ESPEAK_PROVIDER_ID;
  readonly offline = true;

  listVoices(): Promise<Voice[]> {
    voicesPromise ??= engine
      .request({ type: "voices" })
      .then(({ voices = [] }) => {
        const english = voices.filter((voice) => ESPEAK_ENGLISH_VOICE.test(voice.identifier));
        const rank = (id: string) =>
          PREFERRED_ORDER.includes(id) ? PREFERRED_ORDER.indexOf(id) : PREFERRED_ORDER.length;
        english.sort((a, b) => rank(a.identifier) - rank(b.identifier) || a.name.localeCompare(b.name));
        const engine = new Set(voices.map((voice) => voice.identifier));
        const others = Object.values(ESPEAK_LANGUAGE_VOICES)
          .flat()
          .filter((voice) => engine.has(voice.voice_id))
          .map((voice) => ({ ...voice }));
        return [...english.map((voice) => ({ voice_id: voice.identifier, name: voice.name })), ...others];
      })
      .catch((error) => {
        voicesPromise = null;
        throw new ProviderError("speech", ESPEAK_PROVIDER_ID, "unavailable", error.message);
      });
    return voicesPromise;
  }

  async synthesize(text: string, voiceId: string): Promise<SpeechAudio> {
    let answer: WorkerAnswer;
    try {
      answer = await engine.request({
        type: "synthesize",
        text: escapeForEspeak(text),
        voice: voiceId,
        rate: SPEAKING_RATE,
      });
    } catch (error) {
      throw new ProviderError("speech", ESPEAK_PROVIDER_ID, "unavailable", (error as Error).message);
    }
    if (!answer.samples || answer.samples.length === 0 || !answer.sampleRate) {
      throw new ProviderError("speech", ESPEAK_PROVIDER_ID, "bad_response", "the engine produced no audio");
    }
    return { bytes: encodeWav(answer.samples, answer.sampleRate), contentType: "audio/wav", extension: "wav" };
  }
}
