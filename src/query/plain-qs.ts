/**
 * The query strings clients send most (`filters[views][$gt]=5&sort=title:asc&pagination[page]=2`) parsed
 * without qs, to the very object qs makes of them with the options of parse-qs.ts: each key a name and bracketed
 * names (no numbers, no empty `[]`, no dots or escapes in the key), each key once, none both a value and a
 * branch, none a property of `Object.prototype`. Anything else answers undefined, and qs parses it.
 */

/** Deeper keys are left to qs, which stops splitting at its `depth`. */
const MAX_SEGMENTS = 8;
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

type Tree = { [key: string]: Tree | string | null };

/** qs's decoder: `+` is a space, then percent-decoding, or the text as it is when that fails. */
function decodeValue(s: string): string {
  const spaced = s.includes('+') ? s.replace(/\+/g, ' ') : s;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

const reserved = (name: string) => FORBIDDEN.has(name) || Object.prototype.hasOwnProperty.call(Object.prototype, name);

/** Whether char code `c` may start a name: a letter or `_`, and `$` in brackets (`[$gt]`). */
const starts = (c: number, bracketed: boolean) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (bracketed && c === 36);
/** Whether char code `c` may follow in a name: `[\w-]`, and `$` in brackets. */
const follows = (c: number, bracketed: boolean) => starts(c, bracketed) || (c >= 48 && c <= 57) || c === 45;

/**
 * `raw` (without `?`) as qs parses it, or undefined when it is not of the plain shape above: a key is
 * `name[name]…` (`[A-Za-z_][\w-]*`, then `[A-Za-z_$][\w$-]*` in each bracket), read a character at a time.
 */
export function parsePlainQuery(raw: string): Record<string, unknown> | undefined {
  const out: Tree = {};
  let from = 0;
  // The next `]=` and `=` at or after `from`, kept while they lie beyond the part: searching again from each part
  // to the end would read a long string of parts without them once per part.
  let nextBracketEquals = -2;
  let nextEquals = -2;
  while (from <= raw.length) {
    let to = raw.indexOf('&', from);
    if (to === -1) to = raw.length;
    if (to === from) return undefined;
    // Where qs splits a part: at `]=` when there is one, else at the first `=`.
    if (nextBracketEquals !== -1 && nextBracketEquals < from) nextBracketEquals = raw.indexOf(']=', from);
    if (nextEquals !== -1 && nextEquals < from) nextEquals = raw.indexOf('=', from);
    const eq = nextBracketEquals !== -1 && nextBracketEquals < to ? nextBracketEquals + 1 : nextEquals;
    const keyEnd = eq !== -1 && eq < to ? eq : to;
    const value = keyEnd === to ? null : decodeValue(raw.slice(eq + 1, to));
    let node = out;
    let at = from;
    for (let segment = 0; ; segment++) {
      const bracketed = segment > 0;
      if (bracketed && raw.charCodeAt(at++) !== 91) return undefined;
      const begin = at;
      if (!starts(raw.charCodeAt(at), bracketed)) return undefined;
      for (at++; at < keyEnd && follows(raw.charCodeAt(at), bracketed); at++);
      const name = raw.slice(begin, at);
      if (bracketed && (at >= keyEnd || raw.charCodeAt(at++) !== 93)) return undefined;
      if (segment >= MAX_SEGMENTS || reserved(name)) return undefined;
      const has = Object.prototype.hasOwnProperty.call(node, name);
      if (at === keyEnd) {
        if (has) return undefined;
        node[name] = value;
        break;
      }
      let child = has ? node[name] : undefined;
      if (child === undefined) node[name] = child = {};
      else if (child === null || typeof child !== 'object') return undefined;
      node = child;
    }
    from = to + 1;
  }
  return out;
}
