/** "Did you mean": the known words closest to a mistyped one. */

/** How many single-character edits turn one word into the other (case is ignored). */
function editDistance(a: string, b: string): number {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= right.length; j += 1) {
      const substitution = previous[j - 1]! + (left[i - 1] === right[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[right.length]!;
}

/** The first word of a camelCase name: `button` of `buttonColour`. */
const firstWord = (name: string) => /^[a-z]+|^[A-Z][a-z]*/.exec(name)?.[0].toLowerCase() ?? '';

/**
 * The candidates within a few edits of `word`, closest first. A candidate that starts with the same
 * camelCase word, or contains the whole word, may be further off: `buttonColour` finds
 * buttonBodyColor and buttonTextColor, `button` every button style.
 */
export function closeMatches(word: string, candidates: readonly string[], limit = 5): string[] {
  const lower = word.toLowerCase();
  const near = Math.max(2, Math.floor(word.length / 3));
  const head = firstWord(word);
  const related = (candidate: string) => (lower.length >= 3 && candidate.toLowerCase().includes(lower)) || (head.length >= 3 && firstWord(candidate) === head);
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(word, candidate) }))
    .filter(
      ({ candidate, distance }) =>
        distance <= near || (related(candidate) && distance <= Math.ceil(word.length / 2)) || candidate.toLowerCase().includes(lower),
    )
    .sort((a, b) => a.distance - b.distance)
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}

/** A hint naming the close matches, or listing every candidate when none is close. */
export function suggestionHint(word: string, candidates: readonly string[]): string {
  const close = closeMatches(word, candidates);
  return close.length > 0 ? `did you mean ${close.join(', ')}?` : `expected one of: ${candidates.join(', ')}`;
}
