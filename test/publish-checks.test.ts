import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';
import { openProject } from '../src/project.js';

/**
 * A draft may lack what a published version needs (Strapi checks required fields, minimums and formats when content
 * is published): publishing such a draft is refused, naming the field, and writes nothing.
 */
describe('publishing a draft that is not complete', () => {
  const project = makeProject();
  afterAll(() => project.cleanup());
  const dir = ['--dir', project.dir];
  const file = (id: string) => join(project.contentDir, 'documents', 'articles', `${id}.json`);
  const draft = async (data: Record<string, unknown>) => {
    const r = await runFolio([
      'docs',
      'create',
      'articles',
      '--status',
      'draft',
      '--data',
      JSON.stringify(data),
      '--json',
      ...dir,
    ]);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout).data.documentId as string;
  };

  it.each([
    ['without its required title', { description: 'no title yet' }, 'title is required'],
    ['with views below their minimum', { title: 'Counted', views: -1 }, 'views must be greater than or equal to 0'],
  ])('folio docs publish refuses a draft %s, and the file keeps no published version', async (_what, data, message) => {
    const id = await draft(data);
    const before = readFileSync(file(id), 'utf8');
    const r = await runFolio(['docs', 'publish', 'articles', id, ...dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
    expect(readFileSync(file(id), 'utf8')).toBe(before);
    expect(JSON.parse(before).locales.en.published).toBeUndefined();
  });

  it('the document service refuses it too, as the Studio and every client reach it', async () => {
    const id = await draft({ description: 'still no title' });
    const opened = await openProject(project.dir);
    const refused = await opened.documents.publish('article', id).then(
      () => undefined,
      (err: { status: number; message: string }) => err,
    );
    expect(refused).toMatchObject({
      status: 400,
      message: 'title must be a `string` type, but the final value was: `null`.',
    });
    expect(JSON.parse(readFileSync(file(id), 'utf8')).locales.en.published).toBeUndefined();
  });
});
