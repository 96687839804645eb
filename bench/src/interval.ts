/**
 * How sure the cost bench is of a median of per-round ratios (issue 26, cost): the rounds on a
 * shared machine spread by tens of per cent, so a budget of 5 % is judged by an interval.
 */

/** The confidence of the interval printed around each median. */
export const INTERVAL_CONFIDENCE = 0.9;

/**
 * A distribution-free interval for the median of `values` (the order statistics k and n + 1 − k,
 * k the largest with P(Binomial(n, ½) < k) ≤ (1 − confidence) / 2): what the rounds say about
 * where the true median lies, whatever the shape of their spread. With 11 rounds it is the 3rd
 * to the 9th value (93 %); with fewer than 5 no pair reaches 90 %, and it is the whole range.
 */
export function medianInterval(
  values: number[],
  confidence = INTERVAL_CONFIDENCE,
): [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  let k = 1;
  // P(X ≤ j) for X ~ Binomial(n, ½), summed term by term.
  let term = 0.5 ** n;
  let below = term;
  for (let j = 1; j < n / 2 && below <= (1 - confidence) / 2; j++) {
    k = j;
    term = (term * (n - j + 1)) / j;
    below += term;
  }
  return [sorted[k - 1]!, sorted[n - k]!];
}

/**
 * Against a budget, by the interval, not the median alone: "reached" only when the whole interval
 * is within the budget, "not reached" when all of it is over, and "not resolved" when the rounds
 * spread across the budget (more rounds or a quieter machine would tell).
 */
export function verdict(interval: [number, number], budget: number): string {
  if (interval[1] <= budget) return 'reached';
  if (interval[0] > budget) return 'not reached';
  return 'not resolved';
}
