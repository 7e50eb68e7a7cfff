import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadSchemas } from '../src/schema/registry.js';
import { versionKeys } from '../src/documents/file-format.js';
import { serialize } from '../src/store/serialize.js';
import { mergeDocument } from '../src/git/merge/document.js';
import { renderMerged } from '../src/git/merge/conflict-text.js';
import { FIXTURES } from './helpers/project.js';

/**
 * The merge driver's promise as a property: two sides that edit a document without touching the same thing
 * (different fields, versions or locales; different items of one list; links added to one list) merge
 * without a conflict into exactly the document both sets of edits give when applied one after the other,
 * written as the store writes it.
 */
const schemas = loadSchemas(FIXTURES);
const ct = schemas.byPluralName('articles')!;
const KEYS = versionKeys(ct);

type Version = Record<string, unknown>;
type Doc = { documentId: string; locales: Record<string, Record<string, Version>> };
type Link = { label: string; url: string };

const T0 = '2025-01-01T00:00:00.000Z';
const version = (id: number, status: string, fields: Partial<Version>): Version =>
  Object.fromEntries(
    KEYS.map((k) => [
      k,
      k === 'id'
        ? id
        : k === 'createdAt' || k === 'updatedAt'
          ? T0
          : k === 'publishedAt'
            ? status === 'published'
              ? T0
              : null
            : (fields[k] ?? null),
    ]),
  );

const word = fc.string({ minLength: 1, maxLength: 6, unit: fc.constantFrom(...'abcdefgh') });
/** Link items with distinct urls, so no two items of a list are ever alike. */
const links = fc.uniqueArray(fc.record({ label: word, url: word.map((w) => `https://x.test/${w}`) }), {
  maxLength: 5,
  selector: (l) => l.url,
});
const tagPool = Array.from({ length: 8 }, (_, i) => `tag${i}aaaaaaaaaaaaaaaaaaaaa`);
const tags = fc.uniqueArray(fc.constantFrom(...tagPool), { maxLength: 4 });
const fields = fc.record({ title: word, views: fc.nat(1000), tags, links });

const LOCALES = ['en', 'fr'];
const STATUSES = ['draft', 'published'];
const FIELDS = ['title', 'views', 'tags', 'links'] as const;
/** Who edits one field of one version: nobody, one side, or (lists) both sides, each its own items. */
const owner = fc.constantFrom('none', 'ours', 'theirs', 'both');

const scenario = fc.record({
  base: fc.tuple(fields, fields, fields, fields),
  owners: fc.array(owner, { minLength: 16, maxLength: 16 }),
  values: fc.array(fields, { minLength: 16, maxLength: 16 }),
  oursLater: fc.boolean(),
  addedLocale: fc.option(fc.tuple(fields, fc.constantFrom('ours', 'theirs')), { nil: undefined }),
});

describe('merging non-overlapping edits (property)', () => {
  it('gives the document both sets of edits make, with no conflict', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const base: Doc = { documentId: 'doc', locales: {} };
        let id = 1;
        LOCALES.forEach((code, l) => {
          base.locales[code] = {};
          STATUSES.forEach((status, k) => (base.locales[code][status] = version(id++, status, s.base[l * 2 + k])));
        });
        const ours = structuredClone(base);
        const theirs = structuredClone(base);
        const expected = structuredClone(base);
        const times = s.oursLater
          ? { ours: '2025-03-01T00:00:00.000Z', theirs: '2025-02-01T00:00:00.000Z' }
          : { ours: '2025-02-01T00:00:00.000Z', theirs: '2025-03-01T00:00:00.000Z' };
        let cell = 0;
        for (const code of LOCALES)
          for (const status of STATUSES) {
            const at = (d: Doc) => d.locales[code][status];
            for (const field of FIELDS) {
              const who = s.owners[cell];
              const value = s.values[cell++][field];
              const touch = (side: 'ours' | 'theirs') => {
                at(side === 'ours' ? ours : theirs).updatedAt = times[side];
                const e = at(expected);
                e.updatedAt = e.updatedAt === T0 || times[side] > (e.updatedAt as string) ? times[side] : e.updatedAt;
              };
              if (who === 'ours' || who === 'theirs') {
                at(who === 'ours' ? ours : theirs)[field] = value;
                at(expected)[field] = value;
                touch(who);
              } else if (who === 'both' && field === 'links') {
                // Ours relabels the even items, theirs the odd ones.
                const list = at(base).links as Link[];
                if (!list.length) continue;
                const relabel = (side: Doc, parity: number) =>
                  (at(side).links = list.map((x, i) =>
                    i % 2 === parity ? { ...x, label: `${x.label}-${parity}` } : x,
                  ));
                relabel(ours, 0);
                relabel(theirs, 1);
                at(expected).links = list.map((x, i) => ({ ...x, label: `${x.label}-${i % 2}` }));
                touch('ours');
                if (list.length > 1) touch('theirs');
                else at(theirs).links = list;
              } else if (who === 'both' && field === 'tags') {
                // Each side adds tags of its own to the end.
                const list = at(base).tags as string[];
                const free = tagPool.filter((t) => !list.includes(t));
                at(ours).tags = [...list, ...free.slice(0, 1)];
                at(theirs).tags = [...list, ...free.slice(1, 3)];
                at(expected).tags = [...list, ...free.slice(0, 3)];
                touch('ours');
                touch('theirs');
              }
            }
          }
        if (s.addedLocale) {
          const [values, side] = s.addedLocale;
          const added = { draft: version(90, 'draft', values), published: version(91, 'published', values) };
          (side === 'ours' ? ours : theirs).locales.de = structuredClone(added);
          expected.locales = Object.fromEntries(
            Object.entries({ ...expected.locales, de: added }).sort(([a], [b]) => (a < b ? -1 : 1)),
          );
        }
        const merged = renderMerged(mergeDocument({ ct, schemas }, base, ours, theirs));
        expect(merged.conflicts).toEqual([]);
        expect(merged.text).toBe(serialize(expected));
      }),
      { numRuns: 300 },
    );
  });
});
