import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import type { FindPlan } from '../src/query/plan.js';
import { addAttributes, makeProject } from './helpers/project.js';
import { planOf } from './helpers/indexed-reads.js';

/**
 * How the planner answers a list query (see docs/performance.md, "Which query uses which index"): which
 * conditions it reads from a range of a sorted order, from the folded texts, through the inverse links, and which
 * it leaves to a scan of every row. indexed-answers.test.ts checks that the answers are right; this table checks
 * that the indexes a query should use are the ones it asks for (a range read as a test of every row answers
 * the same, thousands of times slower).
 */

const ARTICLE = 'api::article.article';
const AUTHOR = 'api::author.author';

interface Summary {
  /** The top-level conditions, by field (or operator). */
  parts: string[];
  /** The relations read through their inverse links. */
  links?: string[];
  sort?: string[];
  /** Per type, the columns (sorted), orders, texts and links the plan asks for. */
  needs: Record<string, { columns: string[]; orders?: string[]; texts?: string[]; links?: string[] }>;
}

function summary(plan: FindPlan | undefined): Summary | undefined {
  if (!plan) return undefined;
  const out: Summary = {
    parts: [...plan.scalars.map((s) => s.field?.spec.key ?? Object.keys(s.node)[0])],
    needs: {},
  };
  if (plan.links.length) out.links = plan.links.map((l) => `${l.relation.spec.key}>${l.target.uid}`);
  if (plan.sort.length) out.sort = plan.sort.map((s) => `${s.field.spec.key}:${s.desc ? 'desc' : 'asc'}`);
  for (const [uid, n] of plan.needs) {
    const entry: Summary['needs'][string] = { columns: [...new Set(n.columns!.map((c) => c.key))].sort() };
    // Each over the query's row set.
    for (const o of [...n.orders!, ...n.texts!]) expect(o.rows).toBe(plan.rows);
    if (n.orders!.length) entry.orders = n.orders!.map((o) => o.field.key);
    if (n.texts!.length) entry.texts = n.texts!.map((t) => t.field.key);
    if (n.links!.length) entry.links = n.links!.map((l) => l.key);
    out.needs[uid] = entry;
  }
  return out;
}

const scalar = (parts: string[], columns: string[], more: { orders?: string[]; texts?: string[] } = {}): Summary => ({
  parts,
  needs: { [ARTICLE]: { columns, ...more } },
});

const PLANS: Array<[name: string, query: Record<string, unknown>, plan: Summary | undefined]> = [
  ['a bare value: a range', { filters: { views: 4 } }, scalar(['views'], ['views'], { orders: ['views'] })],
  ['$eq: a range', { filters: { title: { $eq: 'a' } } }, scalar(['title'], ['title'], { orders: ['title'] })],
  ['$gt: a range', { filters: { views: { $gt: 1 } } }, scalar(['views'], ['views'], { orders: ['views'] })],
  ['$gte: a range', { filters: { views: { $gte: 1 } } }, scalar(['views'], ['views'], { orders: ['views'] })],
  ['$lt: a range', { filters: { views: { $lt: 1 } } }, scalar(['views'], ['views'], { orders: ['views'] })],
  ['$lte: a range', { filters: { views: { $lte: 1 } } }, scalar(['views'], ['views'], { orders: ['views'] })],
  [
    '$between: a range',
    { filters: { rating: { $between: [1, 2] } } },
    scalar(['rating'], ['rating'], { orders: ['rating'] }),
  ],
  [
    'two bounds: a range',
    { filters: { views: { $gt: 1, $lte: 5 } } },
    scalar(['views'], ['views'], { orders: ['views'] }),
  ],
  ['$in: a test of each row', { filters: { views: { $in: [1, 2] } } }, scalar(['views'], ['views'])],
  ['$ne: a test of each row', { filters: { views: { $ne: 1 } } }, scalar(['views'], ['views'])],
  ['a bound and $ne: a test', { filters: { views: { $gt: 1, $ne: 3 } } }, scalar(['views'], ['views'])],
  ['$null: a test', { filters: { views: { $null: true } } }, scalar(['views'], ['views'])],
  [
    '$containsi: the folded texts',
    { filters: { title: { $containsi: 'a' } } },
    scalar(['title'], ['title'], { texts: ['title'] }),
  ],
  [
    '$startsWithi: the folded texts',
    { filters: { title: { $startsWithi: 'a' } } },
    scalar(['title'], ['title'], { texts: ['title'] }),
  ],
  [
    '$endsWithi: the folded texts',
    { filters: { description: { $endsWithi: 'a' } } },
    scalar(['description'], ['description'], { texts: ['description'] }),
  ],
  ['$containsi and $ne: a test', { filters: { title: { $containsi: 'a', $ne: 'b' } } }, scalar(['title'], ['title'])],
  ['$contains: a test', { filters: { title: { $contains: 'a' } } }, scalar(['title'], ['title'])],
  ['$eqi: a test', { filters: { title: { $eqi: 'a' } } }, scalar(['title'], ['title'])],
  [
    '$or: one test over its fields',
    { filters: { $or: [{ views: 1 }, { title: 'x' }] } },
    scalar(['$or'], ['title', 'views']),
  ],
  ['$not: one test', { filters: { $not: { views: { $gt: 1 } } } }, scalar(['$not'], ['views'])],
  [
    '$and: each condition on its own',
    { filters: { $and: [{ views: { $gt: 1 } }, { title: { $containsi: 'a' } }] } },
    scalar(['views', 'title'], ['title', 'views'], { orders: ['views'], texts: ['title'] }),
  ],
  [
    'a list: each condition on its own',
    { filters: [{ views: 1 }, {}, { rating: { $lt: 2 } }] },
    scalar(['views', 'rating'], ['rating', 'views'], { orders: ['views', 'rating'] }),
  ],
  ['the id', { filters: { id: { $lt: 9 } } }, scalar(['id'], ['id'], { orders: ['id'] })],
  [
    'a sort: an order of its first key',
    { sort: ['title:asc', 'views:desc'] },
    {
      parts: [],
      sort: ['title:asc', 'views:desc'],
      needs: { [ARTICLE]: { columns: ['title', 'views'], orders: ['title'] } },
    },
  ],
  [
    'a filter and a sort',
    { filters: { featured: true }, sort: ['rating:desc'] },
    {
      parts: ['featured'],
      sort: ['rating:desc'],
      needs: { [ARTICLE]: { columns: ['featured', 'rating'], orders: ['featured', 'rating'] } },
    },
  ],
  [
    'through a relation: the inverse links',
    { filters: { author: { name: 'Ada' } } },
    {
      parts: [],
      links: [`author>${AUTHOR}`],
      needs: { [ARTICLE]: { columns: [], links: ['author'] }, [AUTHOR]: { columns: ['name'] } },
    },
  ],
  [
    'through a list relation and a range',
    { filters: { tags: { name: { $in: ['a'] } }, views: { $lt: 3 } } },
    {
      parts: ['views'],
      links: ['tags>api::tag.tag'],
      needs: {
        [ARTICLE]: { columns: ['views'], orders: ['views'], links: ['tags'] },
        'api::tag.tag': { columns: ['name'] },
      },
    },
  ],
  ['a sort through a relation', { sort: ['author.name:asc'] }, undefined],
  ['the related ids', { filters: { author: { $null: true } } }, undefined],
  ['the related ids, by value', { filters: { author: { id: { $eq: 1 } }, tags: { $notNull: true } } }, undefined],
  ['a relation that also matches no relation', { filters: { author: { name: { $null: true } } } }, undefined],
  [
    'a negated condition through a relation',
    { filters: { author: { $not: { name: 'x' } } } },
    {
      parts: [],
      links: [`author>${AUTHOR}`],
      needs: { [ARTICLE]: { columns: [], links: ['author'] }, [AUTHOR]: { columns: ['name'] } },
    },
  ],
  ['a relation inside $or', { filters: { $or: [{ author: { name: 'Ada' } }, { views: 1 }] } }, undefined],
  ['a relation inside $not', { filters: { $not: { author: { name: 'Ada' } } } }, undefined],
  ['a relation two steps away', { filters: { author: { articles: { title: 'x' } } } }, undefined],
  ['a component', { filters: { seo: { metaTitle: 'x' } } }, undefined],
  ['media', { filters: { cover: { name: 'x' } } }, undefined],
];

describe('how the planner answers a list query from the indexes', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    // Relations to a localized type, from a localized type and from one without locales.
    const toArticle = { type: 'relation', relation: 'manyToOne', target: ARTICLE };
    addAttributes(made.contentDir, 'article', { related: toArticle });
    // And both sides of a relation between two types without locales.
    addAttributes(made.contentDir, 'tag', {
      featured: toArticle,
      owner: { type: 'relation', relation: 'manyToOne', target: AUTHOR, inversedBy: 'tags' },
    });
    addAttributes(made.contentDir, 'author', {
      tags: { type: 'relation', relation: 'oneToMany', target: 'api::tag.tag', mappedBy: 'owner' },
    });
    project = await openProject(made.dir);
  });
  afterAll(() => made.cleanup());

  it.each(PLANS)('%s', (_name, query, plan) => {
    expect(summary(planOf(project, 'articles', query))).toEqual(plan);
  });

  it('leaves to a scan a filter through a relation its type does not own', () => {
    expect(planOf(project, 'authors', { filters: { articles: { title: 'x' } } })).toBeUndefined();
    expect(planOf(project, 'authors', { filters: { tags: { name: 'x' } } })).toBeUndefined();
    expect(summary(planOf(project, 'tags', { filters: { owner: { name: 'x' } } }))?.links).toEqual([`owner>${AUTHOR}`]);
    expect(summary(planOf(project, 'authors', { filters: { name: 'Ada' } }))?.parts).toEqual(['name']);
  });

  it('answers through a relation to a localized type for a read of one locale only', () => {
    const filters = { related: { title: 'x' } };
    const plan = planOf(project, 'articles', { status: 'draft', locale: 'fr', filters })!;
    expect(summary(plan)?.links).toEqual([`related>${ARTICLE}`]);
    expect(plan.links[0].targetRows).toMatchObject({ status: 'draft', locale: 'fr' });
    expect(planOf(project, 'articles', { locale: '*', filters })).toBeUndefined();
    // Links from a type without locales name the locale of their target: resolved row by row.
    expect(planOf(project, 'tags', { filters: { featured: { title: 'x' } } })).toBeUndefined();
  });

  it('answers through a relation over the targets of the row set read', () => {
    const plan = planOf(project, 'articles', { status: 'draft', locale: 'fr', filters: { author: { name: 'x' } } })!;
    // Authors have neither drafts nor locales: their row set is every version.
    expect(plan.links[0].targetRows).toMatchObject({ status: undefined, locale: undefined });
  });
});
