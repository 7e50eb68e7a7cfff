import { describe, expect, it } from 'vitest';
import { metaJson } from '../src/query/bodies.js';

/** A list page's meta is written out by hand (bodies.ts): it must be the text JSON.stringify gives, byte for byte. */
describe("a list page's meta text", () => {
  const metas: Array<Record<string, number>> = [
    { page: 1, pageSize: 25, pageCount: 40, total: 1000 },
    { page: 3, pageSize: 1, pageCount: 0, total: 0 },
    { start: 0, limit: 10, total: 7 },
    { start: 20, limit: -1, total: 12345678901 },
    { page: 2, pageSize: 0.5, pageCount: 1e21, total: -0 },
    { page: 1, pageSize: Number.NaN, pageCount: Number.POSITIVE_INFINITY, total: 3 },
    { 'odd "key"\n': 1 },
    {},
  ];
  it.each(metas.map((meta) => [JSON.stringify(meta), meta] as const))('%s', (_name, meta) => {
    expect(metaJson(meta)).toBe(`${JSON.stringify({ pagination: meta })}}`);
  });
});
