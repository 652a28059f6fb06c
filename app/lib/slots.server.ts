/**
 * A fixed number of slots for work that competes for the machine's cores, taken in arrival order:
 * `run(work)` starts at once while a slot is free, otherwise queues (first come, first served).
 * Used where letting everything run at once makes everything slow (password hashing).
 */
export interface Slots {
  run<T>(work: () => Promise<T>): Promise<T>;
  readonly running: number;
  readonly queued: number;
  readonly size: number;
}

export function createSlots(size: number): Slots {
  let running = 0;
  const waiting: Array<() => void> = [];
  return {
    async run(work) {
      if (running < size) running++;
      else await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over on release
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
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
