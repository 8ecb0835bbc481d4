/** Suggests the known name closest to a misspelled one, for errors that teach. */

/** Edit distance between two short strings (keys of a fixture block), compared without case. */
function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const substitution = previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[y.length];
}

/** The closest of `known` to `name`, when it is close enough to be a likely typo. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  // Names longer than this are not keys anyone misspelled; skip the quadratic work.
  if (name.length > 64) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const allowed = Math.max(1, Math.floor(name.length / 3));
  return bestDistance <= allowed ? best : undefined;
}
