import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';

/** The CLI over a temp project, run in this process by its main(argv) (see helpers/cli.ts). */
const folio = (args: string[], input?: string) => runFolio(args, { input });

describe('folio docs and types from the command line', () => {
  const project = makeProject();
  const dir = ['--dir', project.dir];
  afterAll(() => project.cleanup());
  let authorId = '';

  beforeAll(async () => {
    const r = await folio([
      'docs',
      'create',
      'authors',
      '--data',
      '{"name":"Ada","email":"ada@example.com"}',
      '--json',
      ...dir,
    ]);
    expect(r.code).toBe(0);
    authorId = JSON.parse(r.stdout).data.documentId;
  });

  it('prints help with the commands and examples', async () => {
    const r = await folio(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['serve', 'types', 'docs']) expect(r.stdout).toContain(c);
    expect(r.stdout).toContain('Examples');
  });

  it('lists content-types for people and as JSON', async () => {
    const human = await folio(['types', 'list', ...dir]);
    expect(human.stdout).toMatch(/api::article\.article\s+collectionType\s+\/api\/articles/);
    const json = JSON.parse((await folio(['types', 'list', '--json', ...dir])).stdout);
    expect(json.find((t: { uid: string }) => t.uid === 'api::author.author').documents).toBe(1);
  });

  it('creates from --data and from standard input, writing the file', async () => {
    expect(existsSync(join(project.contentDir, 'documents', 'authors', `${authorId}.json`))).toBe(true);
    const r = await folio(['docs', 'create', 'categories', '--json', ...dir], '{"name":"Tech","slug":"tech"}');
    expect(r.code).toBe(0);
    const id = JSON.parse(r.stdout).data.documentId;
    const file = JSON.parse(readFileSync(join(project.contentDir, 'documents', 'categories', `${id}.json`), 'utf8'));
    expect(file.published).toMatchObject({ name: 'Tech', slug: 'tech' });
  });

  it("lists, gets and updates with the API's query engine", async () => {
    await folio([
      'docs',
      'create',
      'articles',
      '--data',
      JSON.stringify({ title: 'Hello CLI', views: 7, author: authorId }),
      ...dir,
    ]);
    const list = await folio(['docs', 'list', 'articles', ...dir]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('Hello CLI');
    expect(list.stdout).toContain('page 1 of 1');
    const json = JSON.parse(
      (await folio(['docs', 'list', 'articles', '--filter', 'views[$gt]=5', '--populate', 'author', '--json', ...dir]))
        .stdout,
    );
    expect(json.meta.pagination.total).toBe(1);
    expect(json.data[0].author.name).toBe('Ada');
    const none = JSON.parse(
      (await folio(['docs', 'list', 'articles', '--filter', 'views[$gt]=50', '--json', ...dir])).stdout,
    );
    expect(none.data).toEqual([]);
    const id = json.data[0].documentId;
    const upd = await folio(['docs', 'update', 'articles', id, '--data', '{"views":8}', ...dir]);
    expect(upd.code).toBe(0);
    const got = JSON.parse((await folio(['docs', 'get', 'articles', id, ...dir])).stdout);
    expect(got.views).toBe(8);
  });

  it('drafts, publishes and unpublishes', async () => {
    const r = JSON.parse(
      (await folio(['docs', 'create', 'articles', '--status', 'draft', '--data', '{"title":"WIP"}', '--json', ...dir]))
        .stdout,
    );
    const id = r.data.documentId;
    expect((await folio(['docs', 'get', 'articles', id, ...dir])).code).not.toBe(0);
    expect((await folio(['docs', 'publish', 'articles', id, ...dir])).code).toBe(0);
    expect(JSON.parse((await folio(['docs', 'get', 'articles', id, ...dir])).stdout).title).toBe('WIP');
    expect((await folio(['docs', 'unpublish', 'articles', id, ...dir])).code).toBe(0);
    expect((await folio(['docs', 'get', 'articles', id, ...dir])).code).not.toBe(0);
    expect(JSON.parse((await folio(['docs', 'get', 'articles', id, '--status', 'draft', ...dir])).stdout).title).toBe(
      'WIP',
    );
  });

  it('deletes and removes the file', async () => {
    const r = JSON.parse(
      (await folio(['docs', 'create', 'tags', '--data', '{"name":"tmp"}', '--json', ...dir])).stdout,
    );
    const id = r.data.documentId;
    const del = await folio(['docs', 'delete', 'tags', id, ...dir]);
    expect(del.code).toBe(0);
    expect(existsSync(join(project.contentDir, 'documents', 'tags', `${id}.json`))).toBe(false);
  });

  it.each([
    [['docs', 'list', 'nopes'], /Unknown content-type "nopes"/],
    [['docs', 'create', 'authors', '--data', '{oops'], /not valid JSON/],
    [['docs', 'create', 'authors', '--data', '{"bio":"no name"}'], /name is required/],
    [['docs', 'create', 'authors', '--data', '{"name":"x","nope":1}'], /author has no field "nope"/],
    [['docs', 'list', 'articles', '--filter', 'nope=1'], /Invalid key nope/],
  ])('fails clearly on %j', async (args, message) => {
    const r = await folio([...args, ...dir]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(message);
  });

  it('explains what to do when there is no project', async () => {
    const r = await folio(['types', 'list', '--dir', '/tmp/definitely-not-a-folio-project']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/folio init/);
  });
});
