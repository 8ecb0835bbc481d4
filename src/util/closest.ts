/**
 * "Did you mean …?": the closest of some known names to a name that matched none of them, used
 * by every message that reports an unknown name (option keys, tools, matchers' keys).
 */

/** The candidate closest to `wanted`, when it is close enough to be a likely typo. */
export function closest(wanted: string, candidates: Iterable<string>): string | undefined {
  // A name this long is nobody's typo of a key; skip the quadratic work.
  if (wanted.length > 256) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  const wantedLower = wanted.toLowerCase();
  for (const candidate of candidates) {
    if (candidate === wanted) continue;
    const distance = candidate.toLowerCase() === wantedLower ? 0 : editDistance(wantedLower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // One edit turns any one- or two-letter name into another: for those only a difference in case counts.
  const allowed = wanted.length < 3 ? 0 : Math.max(1, Math.floor(wanted.length / 3));
  return bestDistance <= allowed ? best : undefined;
}

/** "; did you mean "x"?" or "". */
export function suggestion(wanted: string, candidates: Iterable<string>): string {
  const near = closest(wanted, candidates);
  return near === undefined ? "" : `; did you mean ${JSON.stringify(near)}?`;
}

/**
 * Edit distance counting a swap of two neighbouring letters as one edit ("hnag" is one from
 * "hang", the commonest typo, which plain Levenshtein counts as two); far-apart lengths are
 * answered without the table (they are never a typo).
 */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8) return Math.abs(a.length - b.length);
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, beforePrevious[j - 2]! + 1);
      current[j] = best;
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}
