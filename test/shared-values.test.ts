import { describe, expect, it } from 'vitest';
import { shareEqualValues } from '../src/documents/shared-values.js';
import type { Version } from '../src/documents/model.js';

const TS = '2025-01-01T00:00:00.000Z';
const version = (status: 'draft' | 'published', data: Record<string, unknown>): Version => ({
  id: status === 'draft' ? 1 : 2,
  documentId: 'doc',
  locale: null,
  status,
  createdAt: TS,
  updatedAt: TS,
  publishedAt: status === 'draft' ? null : TS,
  data,
});

/**
 * A published version equal to its draft holds the draft's values (one object for both), and only then: a
 * version served with values of the other would answer differently, down to the order of its keys.
 */
describe('a published version shares its draft values only when they are equal', () => {
  const shares = (draft: Record<string, unknown>, published: Record<string, unknown>) => {
    const d = version('draft', draft);
    const p = version('published', published);
    shareEqualValues(d, p);
    return p.data === d.data;
  };
  it.each([
    ['the same values', { a: 1, b: 'x', c: [1, { d: null }] }, { a: 1, b: 'x', c: [1, { d: null }] }, true],
    ['no values', {}, {}, true],
    ['a value differs', { a: 1, b: 'x' }, { a: 1, b: 'y' }, false],
    ['a nested value differs', { c: [{ d: 1 }] }, { c: [{ d: 2 }] }, false],
    ['the same keys in another order', { a: 1, b: 2 }, { b: 2, a: 1 }, false],
    ['a key more in the draft', { a: 1, b: 2 }, { a: 1 }, false],
    ['a key more in the published version', { a: 1 }, { a: 1, b: 2 }, false],
    ['an object against a list', { a: {} }, { a: [] }, false],
    ['null against an empty object', { a: null }, { a: {} }, false],
  ])('%s', (_, draft, published, expected) => {
    expect(shares(draft, published)).toBe(expected);
  });
});
