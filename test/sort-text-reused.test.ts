import { describe, expect, it } from 'vitest';
import { parseSort } from '../src/query/sort.js';

/**
 * A short `sort` text is read once and its keys shared by the reads that give it again (src/query/sort.ts): each
 * read must get what a first reading gives, a refused text must be refused every time, and no read may change the
 * keys another gets.
 */
const TEXTS = [
  'title:asc',
  'title',
  'views:DESC,title',
  ' title:asc , views ',
  'author.name:desc',
  'a,,b',
  '',
  'x'.repeat(80),
];
const REFUSED = ['title:up', 'title:asc:desc', 'views:asc,title:sideways'];

describe('a sort text read once', () => {
  it('gives each later read the keys a first reading gives', () => {
    const first = TEXTS.map((t) => structuredClone(parseSort(t)));
    for (let round = 0; round < 3; round++) TEXTS.forEach((t, i) => expect(parseSort(t), t).toEqual(first[i]));
    expect(parseSort('views:DESC,title')).toEqual([
      { path: ['views'], desc: true },
      { path: ['title'], desc: false },
    ]);
  });

  it('refuses a refused text every time, before and after a valid one', () => {
    for (const text of REFUSED) {
      for (let round = 0; round < 2; round++) {
        expect(() => parseSort(text), text).toThrow('Invalid order');
        parseSort(text.split(':')[0]);
      }
    }
  });

  it('shares keys no read can change', () => {
    const keys = parseSort('title:desc');
    expect(() => ((keys[0] as { desc: boolean }).desc = false)).toThrow(TypeError);
    expect(() => (keys[0].path as string[]).push('x')).toThrow(TypeError);
    expect(parseSort('title:desc')).toEqual([{ path: ['title'], desc: true }]);
  });
});
