import { createRequire } from 'node:module';
import { validationError } from '../errors.js';
import { parsePlainQuery } from './plain-qs.js';

/**
 * qs, loaded when a query string first needs it: with its dependencies it is some thirty small modules,
 * tens of milliseconds of a server's start that a request without a query string never needs.
 */
let qsModule: typeof import('qs') | undefined;
export function loadQs(): typeof import('qs') {
  return (qsModule ??= createRequire(import.meta.url)('qs') as typeof import('qs'));
}

/** Hard bounds so a hostile query string is a 400, never a hang: Strapi's qs settings plus a size cap. */
export const QUERY_LIMITS = { depth: 20, arrayLimit: 100, parameterLimit: 1000, maxLength: 64 * 1024 } as const;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Parses a raw query string (without `?`) as Strapi does: qs bracket syntax, `strictNullHandling`
 * (a key without `=` is null), arrays up to 100 items. Prototype keys are dropped by qs and refused here
 * if they get through in any form.
 */
export function parseQueryString(raw: string): Record<string, unknown> {
  if (raw === '') return {};
  if (raw.length > QUERY_LIMITS.maxLength) {
    throw validationError(`The query string is too long (${raw.length} characters, at most ${QUERY_LIMITS.maxLength})`);
  }
  // Counted without splitting: the parts are not needed here.
  let count = 1;
  for (let at = raw.indexOf('&'); at !== -1; at = raw.indexOf('&', at + 1)) count++;
  if (count > QUERY_LIMITS.parameterLimit) {
    throw validationError(`Too many query parameters (${count}, at most ${QUERY_LIMITS.parameterLimit})`);
  }
  // The common shapes without qs (see plain-qs.ts): the same object, a fraction of the work.
  const plain = parsePlainQuery(raw);
  if (plain) return plain;
  let parsed: Record<string, unknown>;
  try {
    parsed = loadQs().parse(raw, {
      depth: QUERY_LIMITS.depth,
      arrayLimit: QUERY_LIMITS.arrayLimit,
      parameterLimit: QUERY_LIMITS.parameterLimit,
      strictNullHandling: true,
      allowPrototypes: false,
      plainObjects: false, // ordinary objects, so values print; prototype keys are dropped by allowPrototypes: false
    }) as Record<string, unknown>;
  } catch (err) {
    throw validationError(`Invalid query string: ${(err as Error).message}`);
  }
  assertNoForbiddenKeys(parsed, 0);
  return parsed;
}

function assertNoForbiddenKeys(value: unknown, depth: number) {
  if (!value || typeof value !== 'object') return;
  if (depth > QUERY_LIMITS.depth + 2) throw validationError('The query string is nested too deeply');
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) throw validationError(`Invalid key ${key}`, { key, path: null, source: 'query' });
    assertNoForbiddenKeys((value as Record<string, unknown>)[key], depth + 1);
  }
}
