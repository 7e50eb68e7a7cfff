import { createRequire } from 'node:module';
import type { Literal, Report } from 'scslre';

type Scslre = typeof import('scslre');

/** Loaded on the first schema that has a `regex`: the analysis is dozens of modules most projects never need. */
let scslre: Scslre | undefined;
/** One verdict per pattern: schemas are checked on every reload, and the analysis is not free. */
const verdicts = new Map<string, string | undefined>();

/** Longer patterns are not analysed (the analysis itself grows with the pattern): refused. */
export const PATTERN_MAX_LENGTH = 1000;

/**
 * Why a content-type's `regex` may not be tried on what clients send, undefined when it runs in linear time. A
 * pattern that backtracks super-linearly (`^([a-z0-9]+-?)+$`: exponential on `aaaa…!`) holds the server on a short
 * value, however its length is bounded. The analysis is scslre's, the one `npm run lint` applies to Folio's own
 * regexes (eslint-plugin-regexp); it finds backtracking on a repeated character, the common case.
 */
export function superLinearPattern(pattern: string): string | undefined {
  if (pattern.length > PATTERN_MAX_LENGTH)
    return `"regex" is longer than ${PATTERN_MAX_LENGTH} characters: too long to check that it runs in linear time`;
  if (verdicts.has(pattern)) return verdicts.get(pattern);
  let verdict: string | undefined;
  const reports = analyse({ source: pattern, flags: '' });
  if (reports?.length) {
    const worst = reports.find((r) => r.exponential) ?? reports[0];
    const value = JSON.stringify(`${worst.character.pick.repeat(4)}…`);
    const time = worst.exponential ? 'exponential' : 'polynomial';
    const fixed = fixedSource(reports);
    const advice =
      fixed !== undefined
        ? `write it as ${fixed}, which matches the same values in linear time`
        : worst.type === 'Move'
          ? 'anchor it with ^ (without, it is tried again from every character of the value)'
          : 'write it without quantifiers that can match the same text in more than one way (see docs/SECURITY.md)';
    verdict = `"regex" can take ${time} time on a value like ${value} (the character repeated), stopping the server: `;
    verdict += advice;
  }
  if (verdicts.size > 1000) verdicts.clear();
  verdicts.set(pattern, verdict);
  return verdict;
}

function analyse(literal: Literal): Report[] | undefined {
  scslre ??= createRequire(import.meta.url)('scslre') as Scslre;
  try {
    return scslre.analyse(literal, { reportTypes: { Move: true, Self: true, Trade: true } }).reports;
  } catch {
    // A pattern the analysis cannot parse is one `new RegExp` refuses too, and is reported as such.
    return undefined;
  }
}

/** The pattern with every report fixed by scslre (each fix matches exactly the same values), if it can. */
function fixedSource(reports: Report[]): string | undefined {
  let current = reports;
  for (let round = 0; round < 8; round++) {
    const fixed = current[0].fix();
    if (!fixed || fixed.flags !== '') return undefined;
    const next = analyse(fixed);
    if (!next) return undefined;
    if (!next.length) return fixed.source;
    current = next;
  }
  return undefined;
}
