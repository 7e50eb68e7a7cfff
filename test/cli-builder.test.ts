import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFolio, spawnFolio } from './helpers/cli.js';

/** The CLI, run in this process by its main(argv) (see helpers/cli.ts). */
const folio = (dir: string, args: string[]) => runFolio([...args, '--dir', dir]);
/** The CLI as a user runs it, in a process of its own without a terminal. */
const spawned = (dir: string, args: string[]) => spawnFolio([...args, '--dir', dir]);

describe('the content-type builder, driven by flags', () => {
  const typesAndFieldsTitle =
    'creates types and fields (relations with their inverse), migrates documents on rename/remove, ' +
    'deletes types with their relations';
  it(typesAndFieldsTitle, { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-builder-'));
    const schema = (name: string) => JSON.parse(readFileSync(join(dir, 'content', 'types', `${name}.json`), 'utf8'));
    const ok = async (args: string[]) => {
      const r = await folio(dir, args);
      expect(r.code, r.stderr).toBe(0);
      return r;
    };
    try {
      await ok(['init']);
      await ok(['types', 'create', '--display-name', 'Blog Post', '--draft-and-publish']);
      await ok(['types', 'create', '--display-name', 'Writer']);
      expect(schema('blog-post')).toMatchObject({
        kind: 'collectionType',
        info: { singularName: 'blog-post', pluralName: 'blog-posts', displayName: 'Blog Post' },
        options: { draftAndPublish: true },
      });
      expect(Object.keys(schema('blog-post'))).toEqual([
        'kind',
        'collectionName',
        'info',
        'options',
        'pluginOptions',
        'attributes',
      ]);
      await ok(['types', 'add-field', 'blog-post', 'title', '--type', 'string', '--max-length', '120']);
      await ok([
        'types',
        'add-field',
        'blog-post',
        'writer',
        '--type',
        'relation',
        '--relation',
        'manyToOne',
        '--target',
        'writer',
        '--inverse',
        'posts',
      ]);
      await ok(['types', 'add-field', 'writer', 'name', '--type', 'string']);
      expect(schema('blog-post').attributes.writer).toEqual({
        type: 'relation',
        relation: 'manyToOne',
        target: 'api::writer.writer',
        inversedBy: 'posts',
      });
      expect(schema('writer').attributes.posts).toEqual({
        type: 'relation',
        relation: 'oneToMany',
        target: 'api::blog-post.blog-post',
        mappedBy: 'writer',
      });

      const w = JSON.parse((await ok(['docs', 'create', 'writers', '--data', '{"name":"Ann"}', '--json'])).stdout).data
        .documentId;
      const post = JSON.parse(
        (await ok(['docs', 'create', 'blog-posts', '--data', JSON.stringify({ title: 'Hi', writer: w }), '--json']))
          .stdout,
      ).data.documentId;
      const doc = (plural: string, id: string) =>
        JSON.parse(readFileSync(join(dir, 'content', 'documents', plural, `${id}.json`), 'utf8'));

      const req = await ok([
        'types',
        'add-field',
        'writer',
        'country',
        '--type',
        'string',
        '--required',
        '--default',
        'FR',
      ]);
      expect(req.stdout).toContain('filled country with the default in 1 document(s)');
      expect(doc('writers', w).published.country).toBe('FR');

      await ok(['types', 'rename-field', 'blog-post', 'title', 'headline']);
      expect(Object.keys(schema('blog-post').attributes)).toEqual(['headline', 'writer']);
      expect(doc('blog-posts', post).draft.headline).toBe('Hi');
      expect(doc('blog-posts', post).draft).not.toHaveProperty('title');
      await ok(['types', 'rename-field', 'blog-post', 'writer', 'author']);
      expect(schema('writer').attributes.posts.mappedBy).toBe('author');
      expect(doc('blog-posts', post).published.author).toBe(w);
      expect((await ok(['validate'])).code).toBe(0);

      await ok(['types', 'remove-field', 'writer', 'country']);
      expect(doc('writers', w).published).not.toHaveProperty('country');

      const refused = await folio(dir, ['types', 'delete', 'writer']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/1 document\(s\), and the relation field\(s\) blog-post\.author.*--yes/);
      await ok(['types', 'delete', 'writer', '--yes']);
      expect(existsSync(join(dir, 'content', 'types', 'writer.json'))).toBe(false);
      expect(existsSync(join(dir, 'content', 'documents', 'writers'))).toBe(false);
      expect(schema('blog-post').attributes).not.toHaveProperty('author');
      expect(doc('blog-posts', post).published).not.toHaveProperty('author');
      expect((await ok(['validate'])).code).toBe(0);

      await ok(['components', 'create', 'shared.hero']);
      await ok(['components', 'add-field', 'shared.hero', 'heading', '--type', 'string']);
      await ok(['types', 'add-field', 'blog-post', 'hero', '--type', 'component', '--component', 'shared.hero']);
      expect(JSON.parse((await ok(['components', 'list', '--json'])).stdout)).toEqual([
        { uid: 'shared.hero', displayName: 'Hero', fields: 1 },
      ]);
      expect(readdirSync(join(dir, 'content', 'components', 'shared'))).toEqual(['hero.json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // The first spawned, as a user runs it without a terminal (standard input a pipe that ends); the others in this
  // process, where standard input is not a terminal either (see helpers/cli.ts).
  it.each([
    [['types', 'create'], /--display-name is required when not running in a terminal/, true],
    [['types', 'create', '--display-name', 'Upload'], /reserved name/, false],
    [['types', 'add-field', 'nope', 'x', '--type', 'string'], /Unknown content-type "nope"/, false],
  ])('refuses %j without a terminal instead of waiting', async (args, message, inOwnProcess) => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-builder-'));
    try {
      await folio(dir, ['init']);
      const r = await (inOwnProcess ? spawned : folio)(dir, args);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
