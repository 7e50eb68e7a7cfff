import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';

/** A type related to itself: a bidirectional manyToMany and a oneToOne, both sides on the same type. */
const NOTE = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: true },
  attributes: {
    title: { type: 'string' },
    related: { type: 'relation', relation: 'manyToMany', target: 'api::note.note', inversedBy: 'relatedBy' },
    relatedBy: { type: 'relation', relation: 'manyToMany', target: 'api::note.note', mappedBy: 'related' },
    next: { type: 'relation', relation: 'oneToOne', target: 'api::note.note', inversedBy: 'previous' },
    previous: { type: 'relation', relation: 'oneToOne', target: 'api::note.note', mappedBy: 'next' },
  },
};

interface StoredVersion {
  title: string;
  related: string[];
  next: string | null;
}

/**
 * A write on the inverse side of a relation rewrites the owning documents; when the document names itself,
 * the owning document is the one being written, and both changes must land in its one file.
 */
describe('a document related to itself', () => {
  let s: TestServer;
  let a: string;
  let b: string;
  let c: string;
  const stored = (id: string) =>
    JSON.parse(readFileSync(join(s.contentDir, 'documents', 'notes', `${id}.json`), 'utf8')) as {
      draft: StoredVersion;
      published: StoredVersion;
    };
  const ids = (list: Array<{ documentId: string }>) => list.map((x) => x.documentId).sort();
  const put = async (id: string, data: Record<string, unknown>) => {
    const res = await s.api(`/api/notes/${id}`, { method: 'PUT', body: { data } });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const get = async (id: string, status: 'draft' | 'published' = 'published') => {
    const res = await s.api(`/api/notes/${id}?populate=*&status=${status}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    const project = makeProject();
    writeFileSync(join(project.contentDir, 'types', 'note.json'), JSON.stringify(NOTE, null, 2));
    s = await startTestServer({ dir: project.dir });
    const made = [];
    for (const title of ['A', 'B', 'C']) {
      const res = await s.api('/api/notes', { method: 'POST', body: { data: { title } } });
      expect(res.status, res.text).toBe(201);
      made.push(res.body.data.documentId as string);
    }
    [a, b, c] = made;
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('keeps the fields written with a link to itself from the inverse side (connect)', async () => {
    const answer = await put(a, { title: 'A1', relatedBy: { connect: [a] } });
    expect(answer.title).toBe('A1');
    for (const v of [stored(a).draft, stored(a).published]) {
      expect(v.title).toBe('A1');
      expect(v.related).toEqual([a]);
    }
    const served = await get(a);
    expect(served.title).toBe('A1');
    expect(ids(served.related)).toEqual([a]);
    expect(ids(served.relatedBy)).toEqual([a]);
    expect((await get(a, 'draft')).title).toBe('A1');
  });

  it('applies both sides of one write naming itself on each (owning and inverse)', async () => {
    await put(a, { title: 'A2', related: { connect: [b] }, relatedBy: { connect: [c] } });
    for (const v of [stored(a).draft, stored(a).published]) {
      expect(v.title).toBe('A2');
      expect([...v.related].sort()).toEqual([a, b].sort());
    }
    // Another document's side is written in the same status as the write: its draft.
    expect(stored(c).draft.related).toEqual([a]);
    expect(stored(c).published.related).toEqual([]);
    const served = await get(a);
    expect(ids(served.related)).toEqual([a, b].sort());
    expect(ids(served.relatedBy)).toEqual([a]);
    expect(ids((await get(a, 'draft')).relatedBy)).toEqual([a, c].sort());
    expect(ids((await get(b)).relatedBy)).toEqual([a]);
  });

  it('sets the inverse side to itself and others, then disconnects itself', async () => {
    await put(b, { title: 'B1', relatedBy: { set: [a, b] } });
    for (const v of [stored(b).draft, stored(b).published]) {
      expect(v.title).toBe('B1');
      expect(v.related).toEqual([b]);
    }
    expect([...stored(a).draft.related].sort()).toEqual([a, b].sort());
    expect(ids((await get(b)).relatedBy)).toEqual([a, b].sort());

    await put(a, { title: 'A3', relatedBy: { disconnect: [a] } });
    for (const v of [stored(a).draft, stored(a).published]) {
      expect(v.title).toBe('A3');
      expect(v.related).toEqual([b]);
    }
    const served = await get(a, 'draft');
    expect(ids(served.related)).toEqual([b]);
    expect(ids(served.relatedBy)).toEqual([c]);
  });

  it('links a one-to-one to itself from the inverse side and moves it away again', async () => {
    await put(c, { title: 'C1', previous: c });
    for (const v of [stored(c).draft, stored(c).published]) {
      expect(v.title).toBe('C1');
      expect(v.next).toBe(c);
    }
    let served = await get(c);
    expect(served.title).toBe('C1');
    expect(served.next?.documentId).toBe(c);
    expect(served.previous?.documentId).toBe(c);

    // Another document takes the link: c keeps its title and loses the link to itself.
    await put(c, { title: 'C2', previous: { set: [a] } });
    expect(stored(c).published).toMatchObject({ title: 'C2', next: null });
    expect(stored(a).draft.next).toBe(c);
    served = await get(c, 'draft');
    expect(served.next).toBeNull();
    expect(served.previous?.documentId).toBe(a);

    await put(c, { title: 'C3', previous: { disconnect: [a] }, next: c });
    expect(stored(c).published).toMatchObject({ title: 'C3', next: c });
    expect(stored(a).draft.next).toBeNull();
    served = await get(c, 'draft');
    expect(served.previous?.documentId).toBe(c);
  });

  it('keeps each file as the server reads it back', async () => {
    const before = await Promise.all([a, b, c].map((id) => get(id)));
    await s.project.documents.idle();
    for (const [i, id] of [a, b, c].entries()) {
      // The same content in other text (one line), so the file is decoded again rather than known as written.
      const file = join(s.contentDir, 'documents', 'notes', `${id}.json`);
      writeFileSync(file, `${JSON.stringify(JSON.parse(readFileSync(file, 'utf8')))}\n`);
      expect(await s.project.documents.refreshDocument(s.project.documents.contentType('note'), id)).toBe('updated');
      const after = await get(id);
      expect(after.title).toBe(before[i].title);
      expect(ids(after.related)).toEqual(ids(before[i].related));
      expect(ids(after.relatedBy)).toEqual(ids(before[i].relatedBy));
    }
  });
});
