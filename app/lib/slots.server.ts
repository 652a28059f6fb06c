/**
 * A fixed number of slots for work that competes for the machine's cores, taken in arrival order:
 * `run(work)` starts at once while a slot is free, otherwise queues (first come, first served).
 * Used where letting everything run at once makes everything slow (password hashing, page renders).
 */
export interface Slots {
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Takes a slot; the returned function gives it back (once, however often it is called). */
  acquire(): Promise<() => void>;
  readonly running: number;
  readonly queued: number;
  readonly size: number;
}

export function createSlots(size: number): Slots {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next(); // the slot passes straight to the next in line
    else running--;
  };
  const acquire = async () => {
    if (running < size) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    let given = false;
    return () => {
      if (given) return;
      given = true;
      release();
    };
  };
  return {
    acquire,
    async run(work) {
      const done = await acquire();
      try {
        return await work();
      } finally {
        done();
      }
    },
    get running() {
      return running;
    },
    get queued() {
      return waiting.length;
    },
    size,
  };
}
