import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { DIFF_TIMEOUT_MS, wholeDiff, wordDiff, wordDiffWith, type DiffPart } from "~/common/content/word-diff";

/**
 * The History screen's word diff, off the main thread: a diff of two 100,000-character versions holds
 * its thread for about 0.6 s (the diff's own 500 ms timeout and the words around it), which on the
 * main thread stalls every other request meanwhile (four at once held /api/health for 2.3 s).
 *
 * - Small texts (under DIFF_INLINE_BELOW characters, both together) are diffed inline: a thread's
 *   round trip would cost more than the diff.
 * - Larger ones go to a pool of DIFF_THREADS worker threads, one diff at a time each, in the order asked.
 * - At most DIFF_MAX_WAITING wait for a thread; past that, and for any diff not answered within
 *   DIFF_ANSWER_MS of being asked, the answer is the diff that gave up (wholeDiff: the whole version
 *   removed, the whole current text added), which is still true. A thread busy that long on one diff
 *   is stuck and replaced.
 *
 * As app/ai/image/sketch-pixels.server.ts does, the worker's code is wordDiffWith's own source
 * (Function.prototype.toString), so it is the same from the sources (dev server, tests) and from the
 * build; the `diff` package is the worker's own `require` of the file this module resolves (as
 * app/ai/speech/espeak-speech.server.ts finds its engine), from the sources and the build alike.
 */
export const DIFF_INLINE_BELOW = 20_000;
/** One thread on a two-core machine (the other core is the server's), two beyond. */
export const DIFF_THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));
export const DIFF_MAX_WAITING = 16;
/** A person waits at most this long for a diff (two threads work 16 waiting ones in about 5 s). */
export const DIFF_ANSWER_MS = 5_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { diffWords } = require(workerData.diffPath);
const wordDiffWith = ${wordDiffWith.toString()};
parentPort.on("message", (job) => {
  try {
    parentPort.postMessage({ id: job.id, parts: wordDiffWith(diffWords, job.before, job.after, job.timeoutMs) });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) });
  }
});
`;

interface DiffJob {
  id: number;
  before: string;
  after: string;
  /** Answers once; later calls do nothing. null: the diff that gave up. */
  answer: (parts: DiffPart[] | null) => void;
}
type DiffAnswer = { id: number; parts?: DiffPart[]; error?: string };

let diffPath: string | null = null;
let nextId = 1;

/** One worker thread, one diff at a time; a worker that fails or sticks is replaced on the next diff. */
class DiffThread {
  private worker: Worker | null = null;
  private current: { id: number; done: (parts: DiffPart[] | null) => void } | null = null;

  get busy(): boolean {
    return this.current !== null;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    diffPath ??= createRequire(import.meta.url).resolve("diff");
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { diffPath } });
    // An idle worker must not keep the process (or a test run) alive.
    worker.unref();
    worker.on("message", (answer: DiffAnswer) => {
      if (answer.error) console.error("[history] a word diff failed in its worker:", answer.error);
      const current = this.current;
      if (this.worker === worker && current && current.id === answer.id) current.done(answer.parts ?? null);
    });
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      console.error("[history] the word-diff worker failed", error);
      this.current?.done(null);
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the word-diff worker stopped (${code})`)));
    this.worker = worker;
    return worker;
  }

  /** Works `job`, then calls `idle` (for the pool to hand over the next). */
  run(job: DiffJob, idle: () => void): void {
    let worker: Worker;
    try {
      worker = this.start();
    } catch (error) {
      console.error("[history] the word-diff worker did not start", error);
      job.answer(null);
      return;
    }
    const timer = setTimeout(() => {
      // Stuck: replaced on the next diff (its exit is this worker's no more).
      if (this.worker === worker) this.worker = null;
      void worker.terminate();
      this.current?.done(null);
    }, DIFF_ANSWER_MS);
    timer.unref();
    this.current = {
      id: job.id,
      done: (parts) => {
        clearTimeout(timer);
        this.current = null;
        job.answer(parts);
        idle();
      },
    };
    worker.postMessage({ id: job.id, before: job.before, after: job.after, timeoutMs: DIFF_TIMEOUT_MS });
  }
}

const threads: DiffThread[] = [];
const waiting: DiffJob[] = [];

function handOver(): void {
  if (threads.length === 0) for (let i = 0; i < DIFF_THREADS; i++) threads.push(new DiffThread());
  for (const thread of threads) {
    if (waiting.length === 0) return;
    if (!thread.busy) thread.run(waiting.shift()!, handOver);
  }
}

/** wordDiff, worked in a worker thread when the texts are large (see above); never rejects. */
export function wordDiffOffThread(before: string, after: string): Promise<DiffPart[]> {
  if (before === after || before.length + after.length < DIFF_INLINE_BELOW) {
    return Promise.resolve(wordDiff(before, after));
  }
  // Jobs wait only while every thread is busy (handOver gives an idle thread the first at once).
  if (waiting.length >= DIFF_MAX_WAITING) return Promise.resolve(wholeDiff(before, after));
  return new Promise<DiffPart[]>((resolve) => {
    let answered = false;
    const job: DiffJob = {
      id: nextId++,
      before,
      after,
      answer: (parts) => {
        if (answered) return;
        answered = true;
        clearTimeout(deadline);
        const index = waiting.indexOf(job);
        if (index !== -1) waiting.splice(index, 1);
        resolve(parts ?? wholeDiff(before, after));
      },
    };
    const deadline = setTimeout(() => job.answer(null), DIFF_ANSWER_MS);
    deadline.unref();
    waiting.push(job);
    handOver();
  });
}
