import { distance } from 'fastest-levenshtein';

/**
 * The name of `names` closest to what was typed, when it is close enough to be the one meant (much as commander
 * judges a mistyped command: at most two edits, and more than half of the letters right); else undefined.
 */
export function closest(typed: string, names: Iterable<string>): string | undefined {
  const word = typed.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    const d = distance(word, name.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  if (best === undefined || best === typed) return undefined;
  const length = Math.max(word.length, best.length);
  return bestDistance <= 2 && (length - bestDistance) / length > 0.5 ? best : undefined;
}

/** ` Did you mean "x"?` when a name is close to what was typed, else nothing. */
export const didYouMean = (typed: string, names: Iterable<string>) => {
  const near = closest(typed, names);
  return near === undefined ? '' : ` Did you mean "${near}"?`;
};

/** A type the project does not have: the closest of its names, the list of them, and where to look. */
export function unknownType(name: string, types: Iterable<{ singularName: string; pluralName: string }>): string {
  const list = [...types];
  const near = didYouMean(
    name,
    list.flatMap((t) => [t.singularName, t.pluralName]),
  );
  const known = list.map((t) => t.singularName).join(', ') || '(none)';
  return `Unknown content-type "${name}".${near} Known types: ${known}. See "folio types list".`;
}
