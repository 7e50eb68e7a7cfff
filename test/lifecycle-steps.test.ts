import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers/project.js';

/**
 * The draft & publish steps (publish, unpublish, discard the draft) as clients see them: what each leaves in the
 * file and answers, the event live streams receive for it, and nothing written when there is nothing to do or
 * no such locale.
 */
describe('draft & publish steps', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });
  const fileOf = (id: string) => join(s.contentDir, 'documents', 'articles', `${id}.json`);
  const onDisk = (id: string) => JSON.parse(readFileSync(fileOf(id), 'utf8'));
  const create = async (data: Record<string, unknown>, query = '') => {
    const res = await s.api(`/api/articles${query}`, { method: 'POST', body: { data } });
    expect(res.status).toBe(201);
    return res.body.data.documentId as string;
  };
  const step = (id: string, action: 'unpublish' | 'discard-draft', query = '') =>
    s.api(`/_folio/content/articles/${id}/${action}${query}`, { method: 'POST' });

  /** Opens the live event stream; `next()` resolves with the next document event sent on it. */
  async function liveEvents() {
    const controller = new AbortController();
    const res = await fetch(`${s.url}/_folio/events`, { headers: s.auth, signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const next = async (): Promise<Record<string, unknown>> => {
      for (;;) {
        const m = /data: (\{.*\})\n/.exec(text);
        if (m) {
          text = text.slice(m.index + m[0].length);
          const data = JSON.parse(m[1]) as Record<string, unknown>;
          if (data.event !== 'ready') return data;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        text += decoder.decode(value, { stream: true });
      }
    };
    return { next, close: () => controller.abort() };
  }

  it('unpublish removes the published version, keeps the draft, and tells streams a draft is left', async () => {
    const id = await create({ title: 'Published' });
    await s.api(`/api/articles/${id}?status=draft`, { method: 'PUT', body: { data: { title: 'Draft' } } });
    const live = await liveEvents();
    try {
      expect((await step(id, 'unpublish')).status).toBe(200);
      expect(await live.next()).toMatchObject({ event: 'entry.unpublish', documentId: id, status: 'draft' });
    } finally {
      live.close();
    }
    expect(onDisk(id).locales.en.published).toBeUndefined();
    expect(onDisk(id).locales.en.draft.title).toBe('Draft');
  });

  it('discard makes the draft a copy of the published version, read as an unpublished draft', async () => {
    const id = await create({ title: 'Kept', views: 1 });
    await s.api(`/api/articles/${id}?status=draft`, { method: 'PUT', body: { data: { title: 'Changed', views: 2 } } });
    const published = onDisk(id).locales.en.published;
    const live = await liveEvents();
    try {
      expect((await step(id, 'discard-draft')).status).toBe(200);
      expect(await live.next()).toMatchObject({ event: 'entry.draft-discard', documentId: id, status: 'draft' });
    } finally {
      live.close();
    }
    const { draft, published: after } = onDisk(id).locales.en;
    expect(after).toEqual(published);
    expect(draft).toMatchObject({ title: 'Kept', views: 1, publishedAt: null });
    const read = await s.api(`/api/articles/${id}?status=draft`);
    expect(read.body.data).toMatchObject({ title: 'Kept', views: 1, publishedAt: null });
    // The draft is a copy: changing it leaves the published version as it was.
    await s.api(`/api/articles/${id}?status=draft`, { method: 'PUT', body: { data: { title: 'Again' } } });
    expect(onDisk(id).locales.en.published).toEqual(published);
  });

  it('answers 400 and writes nothing when there is nothing to unpublish or discard', async () => {
    const id = await create({ title: 'Never published' }, '?status=draft');
    const before = readFileSync(fileOf(id), 'utf8');
    for (const action of ['unpublish', 'discard-draft'] as const) {
      const res = await step(id, action);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^Nothing to /);
    }
    expect(readFileSync(fileOf(id), 'utf8')).toBe(before);
  });

  it('answers 404 and writes nothing for a locale the document does not have', async () => {
    const id = await create({ title: 'English only' });
    const before = readFileSync(fileOf(id), 'utf8');
    for (const action of ['unpublish', 'discard-draft'] as const)
      expect((await step(id, action, '?locale=fr')).status).toBe(404);
    await expect(s.project.documents.publish('article', id, { locale: 'fr' })).rejects.toMatchObject({ status: 404 });
    expect(readFileSync(fileOf(id), 'utf8')).toBe(before);
  });

  it('publish makes the draft the published version, sharing its non-localized fields with other locales', async () => {
    const id = await create({ title: 'English', views: 1 });
    const fr = await s.api(`/api/articles/${id}?locale=fr`, { method: 'PUT', body: { data: { title: 'Français' } } });
    expect(fr.status).toBe(200);
    await s.api(`/api/articles/${id}?status=draft`, {
      method: 'PUT',
      body: { data: { title: 'English 2', views: 7 } },
    });
    expect((await s.api(`/api/articles/${id}?locale=fr`)).body.data.views).toBe(1);
    const live = await liveEvents();
    try {
      // The document service's publish: what `folio docs publish` and Folio Studio call.
      const version = await s.project.documents.publish('article', id, { locale: 'en' });
      expect(version).toMatchObject({ status: 'published', data: { title: 'English 2', views: 7 } });
      expect(await live.next()).toMatchObject({ event: 'entry.publish', documentId: id, status: 'published' });
    } finally {
      live.close();
    }
    expect((await s.api(`/api/articles/${id}`)).body.data).toMatchObject({ title: 'English 2', views: 7 });
    expect((await s.api(`/api/articles/${id}?locale=fr`)).body.data).toMatchObject({ title: 'Français', views: 7 });
    expect(onDisk(id).locales.fr.published.views).toBe(7);
  });
});
