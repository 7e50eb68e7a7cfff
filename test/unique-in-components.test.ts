import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';

/**
 * A field marked `unique` inside a component or a zone's component, as Strapi 5.54's entity validator checks it:
 * against the same place in other documents' published versions of the locale, and, in a repeatable component's
 * items or a zone's components, within the document itself. Drafts are not checked.
 */
const UNIQUE = 'This attribute must be unique';

describe('unique fields inside components and dynamic zones', () => {
  let s: TestServer;
  const made = makeProject();
  beforeAll(async () => {
    for (const [name, field] of [
      ['link', 'url'],
      ['seo', 'metaTitle'],
      ['quote', 'title'],
    ]) {
      const file = join(made.contentDir, 'components', 'shared', `${name}.json`);
      const schema = JSON.parse(readFileSync(file, 'utf8'));
      schema.attributes[field].unique = true;
      writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
    }
    s = await startTestServer({ dir: made.dir });
  });
  afterAll(async () => {
    await s.stop();
    made.cleanup();
  });

  const article = (data: Record<string, unknown>, query = '') =>
    s.api(`/api/articles${query}`, { method: 'POST', body: { data: { title: 'T', ...data } } });
  const refusedAt = (res: { status: number; body: { error: Record<string, unknown> } }, ...paths: string[][]) => {
    expect(res.status).toBe(400);
    const errors = (res.body.error.details as { errors: Array<{ path: string[]; message: string }> }).errors;
    expect(errors.map((e) => [e.path.join('.'), e.message])).toEqual(paths.map((p) => [p.join('.'), UNIQUE]));
  };
  const seo = (metaTitle: string) => ({ metaTitle, metaDescription: 'Described well enough' });
  const quote = (title: string) => ({ __component: 'shared.quote', title, body: 'Said' });

  it("refuses a value another document's published version holds at the same place", async () => {
    const first = await article({
      links: [{ label: 'A', url: 'https://a.example' }],
      seo: seo('Meta A'),
      blocks: [quote('Quote A')],
    });
    expect(first.status, first.text).toBe(201);
    refusedAt(await article({ links: [{ url: 'https://b.example' }, { url: 'https://a.example' }] }), [
      'links',
      '1',
      'url',
    ]);
    refusedAt(await article({ seo: seo('Meta A') }), ['seo', 'metaTitle']);
    refusedAt(await article({ blocks: [quote('Quote B'), quote('Quote A')] }), ['blocks', '1', 'title']);
    // Another place holding the value is no clash: a link's url is not a quote's title.
    expect((await article({ blocks: [quote('https://a.example')] })).status).toBe(201);
    // Nor is another locale, nor a draft.
    expect((await article({ seo: seo('Meta A') }, '?locale=fr')).status).toBe(201);
    expect((await article({ seo: seo('Meta A') }, '?status=draft')).status).toBe(201);
    // The CLI names the document that holds it.
    await s.project.documents.idle();
    const data = { title: 'CLI', links: [{ url: 'https://a.example' }] };
    const r = await runFolio(['docs', 'create', 'articles', '--data', JSON.stringify(data), '--dir', made.dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `links.0.url: "https://a.example" is already used by article ${first.body.data.documentId} (en)`,
    );
  });

  it('refuses a value a repeatable component or a zone holds twice in one document', async () => {
    refusedAt(
      await article({ links: [{ url: 'https://twice.example' }, { url: 'https://twice.example' }] }),
      ['links', '0', 'url'],
      ['links', '1', 'url'],
    );
    refusedAt(
      await article({ blocks: [quote('Twice'), quote('Twice')] }),
      ['blocks', '0', 'title'],
      ['blocks', '1', 'title'],
    );
    expect(
      (await article({ links: [{ url: 'https://once.example' }], blocks: [quote('https://once.example')] })).status,
    ).toBe(201);
  });

  it('frees a value once the document holding it changes it, and folio validate names one held twice', async () => {
    const a = await article({ links: [{ url: 'https://moved.example' }] });
    const id = a.body.data.documentId as string;
    refusedAt(await article({ links: [{ url: 'https://moved.example' }] }), ['links', '0', 'url']);
    const moved = await s.api(`/api/articles/${id}`, {
      method: 'PUT',
      body: { data: { links: [{ url: 'https://elsewhere.example' }] } },
    });
    expect(moved.status, moved.text).toBe(200);
    const b = await article({ links: [{ url: 'https://moved.example' }] });
    expect(b.status, b.text).toBe(201);
    await s.project.documents.idle();

    // What a merge can bring: b's file given a's url.
    const file = join(made.contentDir, 'documents', 'articles', `${b.body.data.documentId}.json`);
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('https://moved.example', 'https://elsewhere.example'));
    const r = await runFolio(['validate', '--dir', made.dir]);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n').filter((l) => l.includes(' is not unique'));
    expect(lines).toHaveLength(1);
    const [held, other] = lines[0].startsWith(`content/documents/articles/${id}`)
      ? [b.body.data.documentId, id]
      : [id, b.body.data.documentId];
    expect(lines[0]).toBe(
      `content/documents/articles/${other}.json: locales.en.published.links.url: ` +
        `"https://elsewhere.example" is not unique: content/documents/articles/${held}.json has it too`,
    );
  });
});
