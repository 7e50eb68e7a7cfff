import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import qs from 'qs';
import { openProject, type Project } from '../src/project.js';
import { Reader } from '../src/query/reader.js';
import { parseQueryString } from '../src/query/parse-qs.js';
import { makeProject } from './helpers/project.js';
import { SNAPSHOT, age, snapshot } from './helpers/snapshot.js';

/**
 * The query indexes (sorted orders, columns, folded texts, inverse links; see docs/performance.md) answer
 * exactly what a plain scan of every row answers: random documents, random queries, and between them random
 * writes through the service and random changes of the files on disk, which the indexes must follow.
 */

const TITLES = [
  'Alpha',
  'alpha',
  'ALPHA',
  'beta ray',
  'Beta',
  'Élan',
  'élan',
  'straße',
  'STRASSE',
  'İstanbul',
  'z',
  '10',
];
const DESCRIPTIONS = [null, '', 'first post', 'ÉCOLE et café', 'x_y%z', 'Science', 'alpha beta'];
const DATES = [null, '2024-01-15', '2024-03-01', '2023-12-24'];
const RATINGS = [null, 1.5, 2, 3.25, 5];
const AUTHORS = ['Ada', 'ada', 'Bob', 'Ève'];

const article = fc.record({
  title: fc.constantFrom(...TITLES),
  description: fc.constantFrom(...DESCRIPTIONS),
  views: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
  rating: fc.constantFrom(...RATINGS),
  featured: fc.option(fc.boolean(), { nil: null }),
  publishDate: fc.constantFrom(...DATES),
  author: fc.option(fc.integer({ min: 0, max: AUTHORS.length - 1 }), { nil: null }),
  locale: fc.constantFrom('en', 'fr'),
  draft: fc.boolean(),
});

/** Operands as a query string gives them: text. */
const operand = (field: string) => {
  switch (field) {
    case 'views':
    case 'id':
      return fc.integer({ min: -1, max: 8 }).map(String);
    case 'rating':
      return fc.constantFrom('1.5', '2', '3', '3.25', '5');
    case 'featured':
      return fc.constantFrom('true', 'false');
    case 'publishDate':
      return fc.constantFrom('2024-01-15', '2024-02-01', '2023-12-24');
    case 'name':
      return fc.constantFrom(...AUTHORS, 'ADA', 'è');
    default:
      return fc.constantFrom(...TITLES, 'a', 'AL', 'É', 'ss', 'İ', 'first', '%');
  }
};

const OPS = [
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$notIn',
  '$between',
  '$null',
  '$notNull',
  '$eqi',
  '$nei',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
];

const condition = (field: string): fc.Arbitrary<unknown> =>
  fc.oneof(
    operand(field),
    fc
      .constantFrom('$ne', '$gt', '$notNull', '$containsi', '$notContains')
      .chain((op) => (op === '$notNull' ? fc.constant('true') : operand(field)).map((v) => ({ [op]: v }))),
    fc.constantFrom(...OPS).chain((op): fc.Arbitrary<unknown> => {
      if (op === '$null' || op === '$notNull') return fc.constantFrom('true', 'false').map((v) => ({ [op]: v }));
      if (op === '$in' || op === '$notIn')
        return fc.array(operand(field), { minLength: 1, maxLength: 3 }).map((v) => ({ [op]: v }));
      if (op === '$between') return fc.tuple(operand(field), operand(field)).map((v) => ({ [op]: v }));
      return operand(field).map((v) => ({ [op]: v }));
    }),
    fc
      .tuple(fc.constantFrom('$gt', '$gte'), operand(field), fc.constantFrom('$lt', '$lte'), operand(field))
      .map(([a, x, b, y]) => ({ [a]: x, [b]: y })),
  );

const FIELDS = ['title', 'description', 'views', 'rating', 'featured', 'publishDate', 'id'];
const fieldFilter = fc.constantFrom(...FIELDS).chain((f) => condition(f).map((c) => ({ [f]: c })));
const authorFilter = fc.constantFrom('name').chain((f) => condition(f).map((c) => ({ author: { [f]: c } })));
const filter = fc.letrec((tie) => ({
  node: fc.oneof(
    { weight: 4, arbitrary: fieldFilter },
    { weight: 3, arbitrary: authorFilter },
    { weight: 1, arbitrary: fc.array(tie('node'), { minLength: 1, maxLength: 2 }).map((xs) => ({ $or: xs })) },
    { weight: 1, arbitrary: tie('node').map((x) => ({ $not: x })) },
    { weight: 1, arbitrary: fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((xs) => ({ $and: xs })) },
  ),
})).node;

const query = fc.record(
  {
    filters: fc.oneof(
      filter,
      fc.tuple(fieldFilter, authorFilter).map(([a, b]) => ({ ...a, ...b })),
    ),
    sort: fc.array(
      fc
        .tuple(fc.constantFrom(...FIELDS, 'createdAt', 'documentId'), fc.constantFrom('asc', 'desc'))
        .map(([f, d]) => `${f}:${d}`),
      { maxLength: 2 },
    ),
    status: fc.constantFrom('published', 'draft'),
    populate: fc.constantFrom('author', '*'),
    fields: fc.constantFrom(['title'], ['views', 'rating']),
    locale: fc.constantFrom('en', 'fr', '*'),
    pagination: fc.oneof(
      fc.record({
        page: fc.constantFrom('1', '1', '2'),
        pageSize: fc.integer({ min: 2, max: 12 }).map(String),
      }),
      fc.record({
        start: fc.integer({ min: 0, max: 8 }).map(String),
        limit: fc.integer({ min: 1, max: 10 }).map(String),
      }),
    ),
  },
  { requiredKeys: ['status', 'pagination'] },
);

const step = fc.oneof(
  { weight: 5, arbitrary: query.map((q) => ({ kind: 'query' as const, q })) },
  { weight: 2, arbitrary: article.map((a) => ({ kind: 'create' as const, a })) },
  { weight: 2, arbitrary: fc.tuple(fc.nat(), article).map(([at, a]) => ({ kind: 'update' as const, at, a })) },
  { weight: 1, arbitrary: fc.nat().map((at) => ({ kind: 'delete' as const, at })) },
  { weight: 2, arbitrary: fc.tuple(fc.nat(), article).map(([at, a]) => ({ kind: 'edit' as const, at, a })) },
  { weight: 1, arbitrary: fc.nat().map((at) => ({ kind: 'remove' as const, at })) },
  // The related documents change too, through the service and on disk: filters through the relation follow.
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.nat(), fc.constantFrom(...AUTHORS, 'ADA', 'Zoë'), fc.boolean())
      .map(([at, name, onDisk]) => ({ kind: 'rename' as const, at, name, onDisk })),
  },
);

type Answer = { ok: true; body: string } | { ok: false; error: string };

describe('query indexes against a plain scan', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;
  const authors: string[] = [];

  beforeAll(async () => {
    made = makeProject();
    project = await openProject(made.dir);
    for (const name of AUTHORS) authors.push((await project.documents.create('authors', { name })).documentId);
  });
  afterAll(() => made.cleanup());

  const ct = () => project.schemas.find('articles')!;

  /** The same query answered from the indexes (as the server runs it), and by a scan of every row. */
  async function both(q: Record<string, unknown>): Promise<[Answer, Answer]> {
    const params = parseQueryString(qs.stringify(q));
    const run = async (indexed: boolean): Promise<Answer> => {
      try {
        const read = new Reader(project).prepare(ct(), params, 'find');
        if (!indexed) read.query.plannable = false;
        const page = indexed ? await read.findLater() : read.find();
        const body = JSON.stringify(page);
        // The answer as the server sends it, from documents shaped before when they were (see bodies.ts).
        if (indexed)
          expect((await new Reader(project).prepare(ct(), params, 'find').findBody('all')).bytes.toString()).toBe(body);
        return { ok: true, body };
      } catch (err) {
        return { ok: false, error: (err as Error).message };
      }
    };
    return [await run(true), await run(false)];
  }

  const data = (a: Record<string, unknown>) => {
    const { locale: _l, draft: _d, author, ...values } = a as Record<string, unknown>;
    return { ...values, author: author === null ? null : authors[author as number] };
  };

  // A hundred runs of writes and queries: 90 s and more on a loaded machine (the timeout only catches a hang).
  it('answers every query as the scan does, through writes and file changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(article, { minLength: 10, maxLength: 50 }),
        fc.array(step, { minLength: 5, maxLength: 30 }),
        fc.boolean(),
        async (initial, steps, lazy) => {
          for (const id of [...project.documents.index.documents(ct().uid)].map((d) => d.documentId))
            await project.documents.delete('articles', id, { locale: '*' });
          const ids: string[] = [];
          for (const a of initial)
            ids.push(
              (
                await project.documents.create('articles', data(a), {
                  locale: a.locale,
                  status: a.draft ? 'draft' : undefined,
                })
              ).documentId,
            );
          if (lazy) {
            // Started again over a snapshot, as a restarted server is: the documents are indexed from it and
            // made and decoded only when first needed, which the indexes wait for (see DocumentIndex.preparing).
            age(made.contentDir);
            rmSync(SNAPSHOT(made.dir), { force: true });
            await snapshot(made.dir);
            project = await openProject(made.dir);
            expect(
              [...project.documents.index.documents(ct().uid)].some((d) => project.documents.index.isUndecoded(d)),
            ).toBe(initial.length > 0);
          }
          const pick = (at: number) => ids[at % ids.length];
          for (const s of steps) {
            if (s.kind === 'query') {
              const [indexed, scanned] = await both(s.q);
              expect(indexed, JSON.stringify(s.q)).toEqual(scanned);
            } else if (s.kind === 'rename') {
              const id = authors[s.at % authors.length];
              if (!s.onDisk) await project.documents.update('authors', id, { name: s.name });
              else {
                const file = project.documents.store.fileOf('authors', id);
                const body = JSON.parse(readFileSync(file, 'utf8'));
                // A type without locales keeps its versions at the top of the file.
                for (const key of ['draft', 'published']) if (body[key]) body[key].name = s.name;
                writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
                await project.documents.reloadDocument(project.schemas.find('authors')!, id);
              }
              const read = new Reader(project).prepare(project.schemas.find('authors')!, {}, 'findOne');
              expect(read.one(id)?.name).toBe(s.name);
            } else if (s.kind === 'create') {
              const v = await project.documents.create('articles', data(s.a), { locale: s.a.locale });
              ids.push(v.documentId);
            } else if (!ids.length) continue;
            else if (s.kind === 'update') {
              await project.documents.update('articles', pick(s.at), data(s.a), {
                locale: s.a.locale,
                status: s.a.draft ? 'draft' : undefined,
              });
            } else if (s.kind === 'delete') {
              const id = pick(s.at);
              await project.documents.delete('articles', id, { locale: '*' });
              ids.splice(ids.indexOf(id), 1);
            } else {
              // A change on disk, as an editor or a git checkout makes it, picked up as the watcher does.
              const id = pick(s.at);
              const file = project.documents.store.fileOf('articles', id);
              if (s.kind === 'remove') {
                rmSync(file, { force: true });
                await project.documents.reloadDocument(ct(), id);
                ids.splice(ids.indexOf(id), 1);
                continue;
              }
              const body = JSON.parse(readFileSync(file, 'utf8'));
              for (const slot of Object.values(body.locales ?? {}) as Array<Record<string, Record<string, unknown>>>)
                for (const v of Object.values(slot)) Object.assign(v, data(s.a));
              const text = `${JSON.stringify(body, null, 2)}\n`;
              writeFileSync(file, text);
              await project.documents.reloadDocument(ct(), id);
            }
          }
        },
      ),
      { numRuns: 100 },
    );
  }, 300_000);
});
