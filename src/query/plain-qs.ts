/**
 * The query strings clients send most (`filters[views][$gt]=5&sort=title:asc&pagination[page]=2`) parsed
 * without qs, to the very object qs makes of them with the options of parse-qs.ts: each key a name and bracketed
 * names (no numbers, no empty `[]`, no dots or escapes in the key), each key once, none both a value and a
 * branch, none a property of `Object.prototype`. Anything else answers undefined, and qs parses it.
 */

const KEY = /^[A-Za-z_][\w-]*(?:\[[A-Za-z_$][\w$-]*\])*$/;
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

/** `raw` (without `?`) as qs parses it, or undefined when it is not of the plain shape above. */
export function parsePlainQuery(raw: string): Record<string, unknown> | undefined {
  const out: Tree = {};
  let from = 0;
  while (from <= raw.length) {
    let to = raw.indexOf('&', from);
    if (to === -1) to = raw.length;
    if (to === from) return undefined;
    const part = raw.slice(from, to);
    from = to + 1;
    // Where qs splits a part: at `]=` when there is one, else at the first `=`.
    const bracketEquals = part.indexOf(']=');
    const eq = bracketEquals === -1 ? part.indexOf('=') : bracketEquals + 1;
    const key = eq === -1 ? part : part.slice(0, eq);
    if (!KEY.test(key)) return undefined;
    const value = eq === -1 ? null : decodeValue(part.slice(eq + 1));
    const open = key.indexOf('[');
    const names = open === -1 ? [key] : [key.slice(0, open), ...key.slice(open + 1, -1).split('][')];
    if (names.length > MAX_SEGMENTS) return undefined;
    let node = out;
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      if (reserved(name)) return undefined;
      const last = i === names.length - 1;
      const has = Object.prototype.hasOwnProperty.call(node, name);
      if (last) {
        if (has) return undefined;
        node[name] = value;
      } else {
        let child = has ? node[name] : undefined;
        if (child === undefined) node[name] = child = {};
        else if (child === null || typeof child !== 'object') return undefined;
        node = child;
      }
    }
  }
  return out;
}
