/**
 * Reads until `done` holds, every 25 ms, and fails with the last value read after `timeoutMs`: tests
 * wait on a condition with a generous bound instead of a fixed pause (a loaded 2-core machine is slow).
 */
export async function waitFor<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
