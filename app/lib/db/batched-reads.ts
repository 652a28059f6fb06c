/**
 * Values read in batches, in the order they are asked for (the exports' bodies and versions;
 * docs/decisions/0078): asking for a key runs one read for its whole batch and drops the batch before,
 * so one query serves many entries and at most one batch is in memory. Batches are cut at `size` keys
 * or, with `weight`, once their keys weigh `size` (a batch holds at least one key).
 */
export function batchedReads<V>(
  keys: readonly string[],
  read: (keys: string[]) => Promise<Map<string, V>>,
  { size, weight = () => 1 }: { size: number; weight?: (key: string) => number },
): (key: string) => Promise<V | undefined> {
  const batchOf = new Map<string, number>();
  const batches: string[][] = [];
  let load = size;
  for (const key of keys) {
    if (load >= size) {
      batches.push([]);
      load = 0;
    }
    batches[batches.length - 1]!.push(key);
    batchOf.set(key, batches.length - 1);
    load += weight(key);
  }
  let held: { index: number; values: Promise<Map<string, V>> } | null = null;
  return async (key) => {
    const index = batchOf.get(key);
    if (index === undefined) return undefined;
    if (held?.index !== index) held = { index, values: read(batches[index]!) };
    return (await held.values).get(key);
  };
}
