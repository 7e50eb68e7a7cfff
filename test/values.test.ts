import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';

/** Every scalar attribute kind with its options, on a type without draft & publish (all checks apply). */
const KINDS = {
  kind: 'collectionType',
  info: { singularName: 'sample', pluralName: 'samples', displayName: 'Sample' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string', required: true, minLength: 2 },
    short: { type: 'string', maxLength: 5, regex: '^[a-z]+$' },
    plain: { type: 'string' },
    text: { type: 'text', maxLength: 10 },
    rich: { type: 'richtext' },
    blocks: { type: 'blocks' },
    email: { type: 'email' },
    secret: { type: 'password' },
    code: { type: 'uid', targetField: 'name' },
    count: { type: 'integer', min: 0, max: 10 },
    big: { type: 'biginteger' },
    ratio: { type: 'float' },
    price: { type: 'decimal' },
    day: { type: 'date' },
    at: { type: 'time' },
    when: { type: 'datetime' },
    stamp: { type: 'timestamp' },
    flag: { type: 'boolean', default: true },
    kind: { type: 'enumeration', enum: ['news', 'blog'], default: 'blog' },
    extra: { type: 'json' },
    serial: { type: 'string', unique: true },
    hidden: { type: 'string', private: true },
  },
};

describe('value validation for every scalar kind', () => {
  let s: TestServer;
  beforeAll(async () => {
    const p = makeProject();
    writeFileSync(join(p.contentDir, 'types', 'sample.json'), JSON.stringify(KINDS));
    const perms = JSON.parse((await import('node:fs')).readFileSync(join(p.contentDir, 'permissions.json'), 'utf8'));
    void perms;
    s = await startTestServer({ dir: p.dir });
  });
  afterAll(async () => { await s.stop(); });

  const create = (data: Record<string, unknown>) => s.api('/api/samples', { method: 'POST', body: { data: { name: 'ok', ...data } } });

  it.each([
    [{ short: 'abc' }, 'short', 'abc'],
    [{ count: '7' }, 'count', 7],
    [{ big: 9007199254740993 }, 'big', '9007199254740992'],
    [{ big: '123456789012345678901' }, 'big', '123456789012345678901'],
    [{ ratio: 0.25 }, 'ratio', 0.25],
    [{ price: '12.5' }, 'price', 12.5],
    [{ day: '2024-02-29T10:00:00Z' }, 'day', '2024-02-29'],
    [{ at: '10:20:30' }, 'at', '10:20:30.000'],
    [{ when: '2024-01-02T10:00:00+02:00' }, 'when', '2024-01-02T08:00:00.000Z'],
    [{ when: 1704189600000 }, 'when', '2024-01-02T10:00:00.000Z'],
    [{ stamp: '2024-01-02T10:00:00.000Z' }, 'stamp', '1704189600000'],
    [{ flag: 'f' }, 'flag', false],
    [{ flag: 1 }, 'flag', true],
    [{ kind: 'news' }, 'kind', 'news'],
    [{ extra: { a: [1, 2] } }, 'extra', { a: [1, 2] }],
    [{ email: 'a@example.com' }, 'email', 'a@example.com'],
    [{ code: 'my-code_1.x~' }, 'code', 'my-code_1.x~'],
    [{ blocks: [{ type: 'heading', level: 2, children: [{ type: 'text', text: 'H' }] }] }, 'blocks', [{ type: 'heading', level: 2, children: [{ type: 'text', text: 'H' }] }]],
    [{}, 'flag', true],
    [{}, 'kind', 'blog'],
    [{}, 'code', null],
  ])('accepts and coerces %j', async (data, key, expected) => {
    const res = await create(data);
    expect(res.status).toBe(201);
    expect(res.body.data[key]).toEqual(expected);
  });

  it.each([
    [{ name: undefined }, 'name must be defined.'],
    [{ name: null }, 'name must be a `string` type, but the final value was: `null`.'],
    [{ name: 'x' }, 'name must be at least 2 characters'],
    [{ short: 'toolong' }, 'short must be at most 5 characters'],
    [{ short: 'ABC' }, 'short must match the following: "/^[a-z]+$/"'],
    [{ plain: 'x'.repeat(256) }, 'plain must be at most 255 characters'],
    [{ text: 'x'.repeat(11) }, 'text must be at most 10 characters'],
    [{ email: 'nope' }, 'email must be a valid email'],
    [{ code: 'has space' }, 'code must match the following: "/^[A-Za-z0-9-_.~]*$/"'],
    [{ count: 'abc' }, 'count must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).'],
    [{ count: 11 }, 'count must be less than or equal to 10'],
    [{ count: -1 }, 'count must be greater than or equal to 0'],
    [{ count: 1.5 }, 'count must be an integer'],
    [{ big: '12x' }, 'big must be a valid integer'],
    [{ day: '02/29/2024' }, 'Invalid format, expected yyyy-MM-dd'],
    [{ day: '2023-02-29' }, 'Invalid format, expected yyyy-MM-dd'],
    [{ at: '10:20' }, 'Invalid time format, expected HH:mm:ss.SSS'],
    [{ when: 'yesterday' }, 'Invalid format, expected a timestamp or an ISO date'],
    [{ flag: 'maybe' }, 'flag must be a `boolean` type, but the final value was: `"maybe"`.'],
    [{ kind: 'other' }, 'kind must be one of the following values: news, blog, '],
    [{ blocks: [{ type: 'marquee' }] }, 'blocks must be a valid blocks value (an array of block nodes)'],
    [{ ratio: 'NaNish' }, 'ratio must be a `number` type, but the final value was: `NaN` (cast from the value `"NaNish"`).'],
  ])('refuses %j with Strapi\'s message', async (data, message) => {
    const body = { name: 'ok', ...data } as Record<string, unknown>;
    if ('name' in data && data.name === undefined) delete body.name;
    const res = await s.api('/api/samples', { method: 'POST', body: { data: body } });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    expect(res.body.error.message).toBe(message);
  });

  it('checks unique values against other documents, never the document itself', async () => {
    const first = await create({ serial: 'S-1' });
    expect(first.status).toBe(201);
    const dup = await create({ serial: 'S-1' });
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toBe('This attribute must be unique');
    expect(dup.body.error.details.errors[0].path).toEqual(['serial']);
    expect((await s.api(`/api/samples/${first.body.data.documentId}`, { method: 'PUT', body: { data: { serial: 'S-1' } } })).status).toBe(200);
  });

  it('never returns private or password attributes, and refuses them in queries', async () => {
    const res = await create({ hidden: 'shh', secret: 'p4ssword' });
    expect(res.status).toBe(201);
    expect(res.body.data).not.toHaveProperty('hidden');
    expect(res.body.data).not.toHaveProperty('secret');
    const list = await s.api('/api/samples');
    expect(list.text).not.toContain('shh');
    expect(list.text).not.toContain('p4ssword');
    expect((await s.api('/api/samples?filters[hidden][$eq]=shh')).body.error.message).toBe('Invalid key hidden');
    expect((await s.api('/api/samples?fields[0]=secret')).body.error.message).toBe('Invalid key secret');
  });

  it('collects several field problems into one error', async () => {
    const res = await s.api('/api/samples', { method: 'POST', body: { data: { name: 'ok', short: 'toolong', count: 99 } } });
    expect(res.body.error.message).toBe('2 errors occurred');
    expect(res.body.error.details.errors.map((e: { path: string[] }) => e.path[0]).sort()).toEqual(['count', 'short']);
  });
});

describe('draft-level checks on draft & publish types', () => {
  it('applies only maximums to drafts and everything on publish', async () => {
    const p = makeProject();
    mkdirSync(join(p.contentDir, 'types'), { recursive: true });
    writeFileSync(join(p.contentDir, 'types', 'post.json'), JSON.stringify({
      kind: 'collectionType', info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' }, options: { draftAndPublish: true },
      attributes: { title: { type: 'string', required: true, minLength: 3, maxLength: 8 } },
    }));
    const s = await startTestServer({ dir: p.dir });
    try {
      const draft = await s.api('/api/posts?status=draft', { method: 'POST', body: { data: { title: 'ab' } } });
      expect(draft.status).toBe(201);
      const tooLong = await s.api('/api/posts?status=draft', { method: 'POST', body: { data: { title: 'way too long' } } });
      expect(tooLong.body.error.message).toBe('title must be at most 8 characters');
      const publish = await s.api(`/api/posts/${draft.body.data.documentId}`, { method: 'PUT', body: { data: {} } });
      expect(publish.status).toBe(400);
      expect(publish.body.error.message).toBe('title must be at least 3 characters');
      expect((await s.api(`/api/posts/${draft.body.data.documentId}`)).status).toBe(404); // nothing was published
    } finally { await s.stop(); p.cleanup(); }
  });
});
