// The arithmetic of `npm run bench -- scale` (bench/bench-scale.mjs, decision 0079): the order of the
// turns, and what a row's per-request CPU readings say. Pure functions; nothing runs on import.
//
// A request here costs about 2 ms of CPU, and on a shared machine one reading in a few dozen is ten
// times that (V8's background threads, a garbage collection, another process slowing the core), so a
// row's ratio from a few long turns moved by ±0.3 between runs. The bench therefore takes many short
// turns, small and large in ABBA order (S L L S S L …) so that a change in the machine's load weighs
// on both alike, and reports beside the plain totals a trimmed mean and the median of the per-pair
// ratios, with their spread, so a reader sees the noise as well as the estimate.

export const median = (values) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export const mean = (values) => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : NaN);

/**
 * The mean of `values` without the `share` lowest and the `share` highest (rounded down to whole values,
 * so a handful of readings is never trimmed to nothing).
 */
export function trimmedMean(values, share = 0.05) {
  const sorted = [...values].sort((a, b) => a - b);
  const cut = Math.floor(sorted.length * share);
  return mean(sorted.slice(cut, sorted.length - cut));
}

/**
 * The sides of `pairs` pairs of turns in ABBA order, starting with `first`: each pair holds one turn of
 * each side, and the side that goes first changes from pair to pair, so a side never runs twice as
 * long in a row as a pair and neither is always first after the other.
 */
export function turnOrder(pairs, first = "small") {
  const other = first === "small" ? "large" : "small";
  const order = [];
  for (let pair = 0; pair < pairs; pair++) order.push(...(pair % 2 === 0 ? [first, other] : [other, first]));
  return order;
}

/**
 * What a row's turns say. `turns` in the order they ran, each { side: "small" | "large", each: [CPU ms of
 * each measured request] }; consecutive turns two by two form a pair of one small and one large
 * (turnOrder). Answers, per side, `cpu` (the mean over every measured request: what the requests cost in
 * all), `trimmed` (the same without the 5% highest and lowest readings) and `requests`; and the ratios
 * large/small: `ratio` (of the means), `trimmedRatio`, `pairRatios` (each pair's large turn's mean over its
 * small turn's), `medianRatio` and `spread` (the lowest and highest pair ratio).
 */
export function summarize(turns, trim = 0.05) {
  const readings = { small: [], large: [] };
  for (const turn of turns) readings[turn.side].push(...turn.each);
  const pairRatios = [];
  for (let i = 0; i + 1 < turns.length; i += 2) {
    const [a, b] = [turns[i], turns[i + 1]];
    if (a.side === b.side) throw new Error("a pair of turns must hold one of each side");
    const [small, large] = a.side === "small" ? [a, b] : [b, a];
    pairRatios.push(mean(large.each) / mean(small.each));
  }
  const side = (values) => ({ cpu: mean(values), trimmed: trimmedMean(values, trim), requests: values.length });
  const small = side(readings.small);
  const large = side(readings.large);
  return {
    small,
    large,
    ratio: large.cpu / small.cpu,
    trimmedRatio: large.trimmed / small.trimmed,
    pairRatios,
    medianRatio: median(pairRatios),
    spread: pairRatios.length ? [Math.min(...pairRatios), Math.max(...pairRatios)] : [NaN, NaN],
  };
}

/**
 * Whether a row that should stay flat did: the median of the pair ratios and the trimmed ratio both
 * within `limit`. The median alone would hide a cost the large person pays in one request out of
 * several; the trimmed means keep any cost paid in more than `trim` of the requests, and drop the rare
 * reading that lands on either side by chance.
 */
export const isFlat = (summary, limit) => summary.medianRatio <= limit && summary.trimmedRatio <= limit;
