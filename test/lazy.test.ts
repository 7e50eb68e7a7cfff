import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadSchemas } from '../src/schema/registry.js';
import { lazyDocument } from '../src/startup/lazy.js';
import { NO_LOCALE } from '../src/documents/model.js';
import { REPO } from './helpers/project.js';

/**
 * Documents indexed from a summary (a first start's reader threads, a snapshot) decode their file on
 * first use of any version's values. What a reader of a version sees then, in the usual case and when
 * the document no longer has that version by the time it is read.
 */
const schemas = loadSchemas(join(REPO, 'content'));
const tags = [...schemas.contentTypes.values()].find((ct) => ct.pluralName === 'tags')!;
const TS = '2025-01-01T00:00:00.000Z';
const body = { documentId: 't1', published: { id: 2, name: 'news', createdAt: TS, updatedAt: TS, publishedAt: TS } };

function indexed() {
  let reads = 0;
  const ctx = {
    ct: tags,
    read: () => {
      reads++;
      return { documentId: 't1', file: 't1.json', body };
    },
  };
  // One slot (no locale): no draft (-1), published id 2.
  const summary = [0, -1, 2];
  const doc = lazyDocument(ctx, 't1', summary, [NO_LOCALE]);
  return { doc, reads: () => reads };
}

describe('a version indexed from its summary', () => {
  it('decodes the file on first use of its values, once', () => {
    const { doc, reads } = indexed();
    const v = doc.slots.get(NO_LOCALE)!.published!;
    expect(v.id).toBe(2);
    expect(reads()).toBe(0);
    expect(v.data).toEqual({ name: 'news' });
    expect([v.createdAt, v.updatedAt, v.publishedAt]).toEqual([TS, TS, TS]);
    expect(reads()).toBe(1);
  });

  it('reads as empty, without throwing, when its document dropped it before it was decoded', () => {
    const { doc } = indexed();
    const v = doc.slots.get(NO_LOCALE)!.published!;
    doc.slots.delete(NO_LOCALE);
    expect(v.data).toEqual({});
    expect(v.publishedAt).toBe(new Date(0).toISOString());
  });
});
