import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { openProject, type Project } from '../src/project.js';

/**
 * The schema loader (strapi-v5-rest.md §1.2–§1.6): each broken schema is reported with its file, attribute and
 * message, and is left out, while every other type loads and is served.
 */

const type = (
  singular: string,
  plural: string,
  attributes: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) => ({
  kind: 'collectionType',
  collectionName: plural,
  info: { singularName: singular, pluralName: plural, displayName: singular },
  options: { draftAndPublish: false },
  attributes,
  ...extra,
});

/** Broken schemas: file name (without .json) → schema (a string is written as is). */
const BROKEN: Record<string, unknown> = {
  badkind: { ...type('badkind', 'badkinds', { name: { type: 'string' } }), kind: 'galaxyType' },
  nosingular: {
    kind: 'collectionType',
    info: { pluralName: 'nosingulars', displayName: 'No singular' },
    attributes: { name: { type: 'string' } },
  },
  unknowntype: type('unknowntype', 'unknowntypes', { name: { type: 'string' }, thing: { type: 'hologram' } }),
  badtarget: type('badtarget', 'badtargets', {
    owner: { type: 'relation', relation: 'manyToOne', target: 'api::ghost.ghost' },
  }),
  noenum: type('noenum', 'noenums', { level: { type: 'enumeration' } }),
  emptyenum: type('emptyenum', 'emptyenums', { level: { type: 'enumeration', enum: [] } }),
  reserved: type('reserved', 'reserveds', { locale: { type: 'string' } }),
  reservedcase: type('reservedcase', 'reservedcases', { createdAt: { type: 'datetime' } }),
  reservedprefix: type('reservedprefix', 'reservedprefixes', { strapiInternal: { type: 'string' } }),
  reservedstatus: type(
    'reservedstatus',
    'reservedstatuses',
    { status: { type: 'string' } },
    { options: { draftAndPublish: true } },
  ),
  notjson: '{ "kind": "collectionType", ',
};

/** Good types: one plain, one with a relation to a good type, one with a relation to a broken type. */
const GOOD: Record<string, unknown> = {
  good: type('good', 'goods', {
    name: { type: 'string', required: true },
    friend: { type: 'relation', relation: 'manyToOne', target: 'api::buddy.buddy' },
  }),
  buddy: type('buddy', 'buddies', { nick: { type: 'string' } }),
  // badtarget fails to load, so this relation is dropped and reported; the rest of the type still works.
  leaning: type('leaning', 'leanings', {
    label: { type: 'string' },
    onBroken: { type: 'relation', relation: 'oneToOne', target: 'api::badkind.badkind' },
  }),
};

describe('the schema loader reports broken schemas and keeps the others', () => {
  let dir: string;
  let cleanup: () => void;
  let project: Project;

  beforeAll(async () => {
    const p = makeProject();
    dir = p.dir;
    cleanup = p.cleanup;
    for (const [name, schema] of Object.entries({ ...BROKEN, ...GOOD })) {
      writeFileSync(
        join(p.contentDir, 'types', `${name}.json`),
        typeof schema === 'string' ? schema : JSON.stringify(schema, null, 2),
      );
    }
    project = await openProject(dir);
  });
  afterAll(() => cleanup());

  const problemsOf = (name: string) => project.schemas.problems.filter((x) => x.file === join('types', `${name}.json`));
  const reportOf = (name: string) =>
    project.report.problems
      .filter((x) => x.file === join(dir, 'content', 'types', `${name}.json`))
      .map((x) => x.message);

  it.each([
    ['badkind', undefined, '"kind" must be "collectionType" or "singleType"'],
    ['nosingular', undefined, '"info.singularName" is required'],
    ['unknowntype', 'thing', 'unknown attribute type "hologram"'],
    ['badtarget', 'owner', '"target" "api::ghost.ghost" is not a known content-type'],
    ['noenum', 'level', '"enum" must be a non-empty array of strings'],
    ['emptyenum', 'level', '"enum" must be a non-empty array of strings'],
    ['reserved', 'locale', '"locale" is a reserved attribute name'],
    ['reservedcase', 'createdAt', '"createdAt" is a reserved attribute name'],
    ['reservedprefix', 'strapiInternal', '"strapiInternal" is a reserved attribute name'],
    ['reservedstatus', 'status', '"status" is reserved on draft & publish types'],
  ])('%s.json: reported with its attribute (%s) and what is wrong', (name, attribute, message) => {
    expect(problemsOf(name)).toContainEqual({ file: join('types', `${name}.json`), attribute, message });
    // The project-level report names the absolute file and prefixes the attribute.
    expect(reportOf(name)).toContain(attribute ? `attribute "${attribute}": ${message}` : message);
  });

  it('a file that is not JSON is reported as unreadable', () => {
    const problems = problemsOf('notjson');
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toMatch(/^cannot read schema: /);
    expect(problems[0].attribute).toBeUndefined();
  });

  it('reports only what is wrong: a broken type names no good attribute', () => {
    expect(problemsOf('unknowntype').map((x) => x.attribute)).toEqual(['thing']);
    expect(problemsOf('badtarget').map((x) => x.attribute)).toEqual(['owner']);
  });

  it('no broken type is loaded; every good type is', () => {
    const uids = [...project.schemas.contentTypes.keys()];
    for (const name of Object.keys(BROKEN)) expect(uids, name).not.toContain(`api::${name}.${name}`);
    for (const name of Object.keys(GOOD)) expect(uids, name).toContain(`api::${name}.${name}`);
    // The fixture types are untouched by the broken neighbours.
    for (const name of ['article', 'author', 'category', 'tag', 'global', 'about'])
      expect(uids).toContain(`api::${name}.${name}`);
    expect(project.schemas.route('goods')?.uid).toBe('api::good.good');
    expect(project.schemas.route('badkinds')).toBeUndefined();
    expect(project.schemas.route('nosingulars')).toBeUndefined();
  });

  it('a relation to a type that failed to load is dropped and reported; the rest of its type loads', () => {
    const leaning = project.schemas.contentTypes.get('api::leaning.leaning')!;
    expect(Object.keys(leaning.attributes)).toEqual(['label']);
    expect(problemsOf('leaning')).toEqual([
      {
        file: join('types', 'leaning.json'),
        attribute: 'onBroken',
        message: expect.stringContaining('api::badkind.badkind'),
      },
    ]);
    const good = project.schemas.contentTypes.get('api::good.good')!;
    expect(Object.keys(good.attributes)).toEqual(['name', 'friend']);
    expect(problemsOf('good')).toEqual([]);
  });

  it('a project of good schemas has no problems at all', async () => {
    const p = makeProject();
    try {
      for (const [name, schema] of Object.entries(GOOD)) {
        if (name === 'leaning') continue;
        writeFileSync(join(p.contentDir, 'types', `${name}.json`), JSON.stringify(schema));
      }
      const clean = await openProject(p.dir);
      expect(clean.schemas.problems).toEqual([]);
      expect(clean.report.problems).toEqual([]);
    } finally {
      p.cleanup();
    }
  });
});

describe('a server over a project with broken schemas', () => {
  let s: TestServer;
  let cleanup: () => void;
  beforeAll(async () => {
    const p = makeProject();
    cleanup = p.cleanup;
    for (const [name, schema] of Object.entries({ ...BROKEN, ...GOOD })) {
      writeFileSync(
        join(p.contentDir, 'types', `${name}.json`),
        typeof schema === 'string' ? schema : JSON.stringify(schema, null, 2),
      );
    }
    s = await startTestServer({ dir: p.dir });
  });
  afterAll(async () => {
    await s.stop();
    cleanup();
  });

  const NOT_FOUND = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };

  it('serves the good types, with their relations', async () => {
    const buddy = await s.api('/api/buddies', { method: 'POST', body: { data: { nick: 'Bo' } } });
    expect(buddy.status).toBe(201);
    const good = await s.api('/api/goods', {
      method: 'POST',
      body: { data: { name: 'G', friend: buddy.body.data.documentId } },
    });
    expect(good.status).toBe(201);
    const read = await s.api(`/api/goods/${good.body.data.documentId}?populate=friend`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ name: 'G', friend: { nick: 'Bo' } });
    const list = await s.api('/api/goods');
    expect(list.status).toBe(200);
    expect(list.body.meta.pagination.total).toBe(1);
    // Validation of the good type still applies.
    expect((await s.api('/api/goods', { method: 'POST', body: { data: {} } })).body.error.message).toBe(
      'name must be defined.',
    );
  });

  it('serves the fixture types next to the broken ones', async () => {
    expect((await s.api('/api/articles')).status).toBe(200);
    expect((await s.api('/api/categories', { method: 'POST', body: { data: { name: 'Still here' } } })).status).toBe(
      201,
    );
  });

  it('serves a type whose relation to a broken type was dropped, without that attribute', async () => {
    const res = await s.api('/api/leanings', { method: 'POST', body: { data: { label: 'L' } } });
    expect(res.status).toBe(201);
    const refused = await s.api('/api/leanings', {
      method: 'POST',
      body: { data: { label: 'L', onBroken: 'abcdefghijklmnopqrstuvwx' } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('Invalid key onBroken');
  });

  it.each([
    'badkinds',
    'nosingulars',
    'unknowntypes',
    'badtargets',
    'noenums',
    'emptyenums',
    'reserveds',
    'reservedcases',
    'reservedprefixes',
    'reservedstatuses',
    'badkind',
    'unknowntype',
  ])('/api/%s answers 404 for reads and writes', async (route) => {
    const get = await s.api(`/api/${route}`);
    expect(get.status).toBe(404);
    expect(get.body).toEqual(NOT_FOUND);
    const post = await s.api(`/api/${route}`, { method: 'POST', body: { data: { name: 'x' } } });
    expect(post.status).toBe(404);
    expect(post.body).toEqual(NOT_FOUND);
  });
});
