import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addComponent, makeProject, startTestServer, type TestServer } from './helpers/project.js';

/** A content-type schema file for a project made by makeProject. */
function writeType(contentDir: string, singular: string, draftAndPublish: boolean, attributes: object) {
  const schema = {
    kind: 'collectionType',
    collectionName: `${singular}s`,
    info: { singularName: singular, pluralName: `${singular}s`, displayName: singular },
    options: { draftAndPublish },
    attributes,
  };
  writeFileSync(join(contentDir, 'types', `${singular}.json`), `${JSON.stringify(schema, null, 2)}\n`);
}

/**
 * What publishing checks, as a client of the REST API meets it: a draft may be saved incomplete, and publishing it
 * (a PUT, Strapi's publish) is refused with every problem listed as Strapi lists them (required fields, lengths,
 * patterns, formats, minimums, unique values, components and dynamic zones with their own required fields and
 * minimum counts), in the order of the type's attributes. Nothing is published then.
 */
describe('publishing checks', () => {
  let s: TestServer;
  beforeAll(async () => {
    const project = makeProject();
    addComponent(project.contentDir, 'speaker', {
      name: { type: 'string', required: true },
      email: { type: 'email' },
    });
    writeType(project.contentDir, 'event', true, {
      name: { type: 'string', required: true, minLength: 3 },
      code: { type: 'string', regex: '^[A-Z]+$' },
      contact: { type: 'email' },
      slug: { type: 'uid' },
      seats: { type: 'integer', min: 1 },
      ref: { type: 'string', unique: true },
      venue: { type: 'component', component: 'shared.speaker', required: true },
      host: { type: 'component', component: 'shared.speaker' },
      speakers: { type: 'component', component: 'shared.speaker', repeatable: true, min: 2 },
      panel: { type: 'component', component: 'shared.speaker', repeatable: true, min: 1, required: true },
      parts: { type: 'dynamiczone', components: ['shared.speaker', 'shared.quote'], min: 2 },
      extras: { type: 'dynamiczone', components: ['shared.speaker'], min: 1, required: true },
    });
    writeType(project.contentDir, 'venue', false, {
      title: { type: 'string', required: true },
      city: { type: 'string', minLength: 2 },
      capacity: { type: 'integer', required: true },
      rooms: { type: 'dynamiczone', components: ['shared.speaker'] },
    });
    s = await startTestServer({ dir: project.dir });
  });
  afterAll(async () => {
    await s.stop();
  });

  const speaker = { name: 'Ada' };
  /** Everything publishing needs. */
  const complete = {
    name: 'Launch',
    venue: speaker,
    panel: [speaker],
    parts: [{ __component: 'shared.speaker', ...speaker }, { __component: 'shared.quote' }],
    extras: [{ __component: 'shared.speaker', ...speaker }],
  };
  let n = 0;

  /** Saves `data` as a draft, then publishes it: the problems listed (path and message), or 'published'. */
  const publish = async (data: Record<string, unknown>) => {
    const draft = await s.api('/api/events?status=draft', { method: 'POST', body: { data } });
    expect(draft.status, JSON.stringify(draft.body?.error)).toBe(201);
    const id = draft.body.data.documentId as string;
    const res = await s.api(`/api/events/${id}`, { method: 'PUT', body: { data: {} } });
    const published = await s.api(`/api/events/${id}?status=published`);
    if (res.status === 200) return published.status === 200 ? 'published' : 'answered 200, published nothing';
    expect([res.status, published.status]).toEqual([400, 404]);
    return (res.body.error.details.errors as Array<{ path: string[]; message: string }>).map(
      (e) => `${e.path.join('.')}: ${e.message}`,
    );
  };

  it.each([
    ['a complete draft', {}, 'published'],
    [
      'a draft without its required name',
      { name: null },
      ['name: name must be a `string` type, but the final value was: `null`.'],
    ],
    ['a name too short', { name: 'ab' }, ['name: name must be at least 3 characters']],
    ['a code not matching its pattern', { code: 'abc' }, ['code: code must match the following: "/^[A-Z]+$/"']],
    ['an empty code', { code: '' }, 'published'],
    ['a contact that is no email', { contact: 'ada' }, ['contact: contact must be a valid email']],
    ['a slug with spaces', { slug: 'a b' }, ['slug: slug must match the following: "/^[A-Za-z0-9-_.~]*$/"']],
    ['no seats', { seats: 0 }, ['seats: seats must be greater than or equal to 1']],
    ['a seat', { seats: 1 }, 'published'],
    ['no venue', { venue: null }, ['venue: venue must be a `object` type, but the final value was: `null`.']],
    [
      'a venue without its name',
      { venue: { email: 'a@b.c' } },
      ['venue.name: venue.name must be a `string` type, but the final value was: `null`.'],
    ],
    [
      'a host with a bad email',
      { host: { name: 'Bo', email: 'bo' } },
      ['host.email: host.email must be a valid email'],
    ],
    ['one speaker of two', { speakers: [speaker] }, ['speakers: speakers field must have at least 2 items']],
    ['no speakers', { speakers: [] }, 'published'],
    [
      'two speakers, the second without a name',
      { speakers: [speaker, {}] },
      ['speakers.1.name: speakers.1.name must be a `string` type, but the final value was: `null`.'],
    ],
    ['an empty required panel', { panel: [] }, ['panel: panel field must have at least 1 items']],
    [
      'one part of two',
      { parts: [{ __component: 'shared.quote' }] },
      ['parts: parts field must have at least 2 items'],
    ],
    ['no parts', { parts: [] }, 'published'],
    [
      'a part without its name',
      { parts: [{ __component: 'shared.quote' }, { __component: 'shared.speaker' }] },
      ['parts.1.name: parts.1.name must be a `string` type, but the final value was: `null`.'],
    ],
    ['an empty required zone', { extras: [] }, ['extras: extras field must have at least 1 items']],
    [
      'several problems',
      { seats: 0, name: 'ab', venue: null, code: 'x' },
      [
        'name: name must be at least 3 characters',
        'code: code must match the following: "/^[A-Z]+$/"',
        'seats: seats must be greater than or equal to 1',
        'venue: venue must be a `object` type, but the final value was: `null`.',
      ],
    ],
  ])('publishing %s', async (_what, change, expected) => {
    expect(await publish({ ...complete, ...change, ref: `ref-${++n}` })).toEqual(expected);
  });

  it('refuses to publish a value another published event holds, when it is unique', async () => {
    expect(await publish({ ...complete, ref: 'taken' })).toBe('published');
    expect(await publish({ ...complete, ref: 'taken' })).toEqual(['ref: This attribute must be unique']);
  });

  it.each([
    ['without its required title', { city: 'Lyon', capacity: 9 }, ['title: title must be defined.']],
    [
      'with a null title',
      { title: null, capacity: 9 },
      ['title: title must be a `string` type, but the final value was: `null`.'],
    ],
    [
      'with a city too short and no title',
      { city: 'L', capacity: 9 },
      ['title: title must be defined.', 'city: city must be at least 2 characters'],
    ],
  ])('creating a document of a type without drafts %s is refused', async (_what, data, expected) => {
    const res = await s.api('/api/venues', { method: 'POST', body: { data } });
    expect([
      res.status,
      res.body.error.details.errors.map(
        (e: { path: string[]; message: string }) => `${e.path.join('.')}: ${e.message}`,
      ),
    ]).toEqual([400, expected]);
  });

  it('updating a document of a type without drafts to a null title is refused', async () => {
    const made = await s.api('/api/venues', { method: 'POST', body: { data: { title: 'Hall', capacity: 9 } } });
    const res = await s.api(`/api/venues/${made.body.data.documentId}`, {
      method: 'PUT',
      body: { data: { title: null } },
    });
    expect([res.status, res.body.error.message]).toEqual([
      400,
      'title must be a `string` type, but the final value was: `null`.',
    ]);
  });

  it('lists the values refused as sent among the other problems, in the order of the fields, each once', async () => {
    const data = { rooms: [{ name: 'Hall' }], capacity: 'many', city: 'L' };
    const res = await s.api('/api/venues', { method: 'POST', body: { data } });
    expect([res.status, res.body.error.message]).toEqual([400, '5 errors occurred']);
    expect(
      res.body.error.details.errors.map(
        (e: { path: string[]; message: string }) => `${e.path.join('.')}: ${e.message}`,
      ),
    ).toEqual([
      'title: title must be defined.',
      'city: city must be at least 2 characters',
      'capacity: capacity must be a `number` type, but the final value was: `NaN` (cast from the value `"many"`).',
      'rooms.0.__component: rooms[0].__component is a required field',
      ': Cannot build relations store from dynamiczone, component identifier is undefined',
    ]);
    expect((await s.api('/api/venues?filters[city]=L')).body.data).toEqual([]);
  });

  it('lists a value refused inside a zone once, though the field is then missing too', async () => {
    const rooms = [{ __component: 'shared.speaker', name: { first: 'Ada' } }];
    const res = await s.api('/api/venues', { method: 'POST', body: { data: { title: 'Hall', capacity: 9, rooms } } });
    expect([
      res.status,
      res.body.error.details.errors.map(
        (e: { path: string[]; message: string }) => `${e.path.join('.')}: ${e.message}`,
      ),
    ]).toEqual([
      400,
      ['rooms.0.name: rooms.0.name must be a `string` type, but the final value was: `{\n  "first": "\\"Ada\\""\n}`.'],
    ]);
  });
});

describe('publishing a draft edited by hand', () => {
  it('refuses a draft whose file lacks a required field, as one that holds null', async () => {
    const project = makeProject();
    writeType(project.contentDir, 'note', true, { title: { type: 'string', required: true }, body: { type: 'text' } });
    const first = await startTestServer({ dir: project.dir });
    const id = (await first.api('/api/notes?status=draft', { method: 'POST', body: { data: { title: 'T' } } })).body
      .data.documentId as string;
    await first.stop();
    const file = join(project.contentDir, 'documents', 'notes', `${id}.json`);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\n\s*"title": "T",/, ''));
    expect(readFileSync(file, 'utf8')).not.toContain('"title"');
    const s = await startTestServer({ dir: project.dir });
    try {
      const res = await s.api(`/api/notes/${id}`, { method: 'PUT', body: { data: { body: 'x' } } });
      expect([res.status, res.body.error?.message, (await s.api(`/api/notes/${id}`)).status]).toEqual([
        400,
        'title must be a `string` type, but the final value was: `null`.',
        404,
      ]);
    } finally {
      await s.stop();
      project.cleanup();
    }
  });
});
