import type { Store } from '../store/store.js';

/**
 * Schema migrations over stored documents: a function applied to every version of every document of a
 * collection, each file rewritten atomically. Used by the content-type builder when a field is renamed
 * or removed, so the files keep matching their schema.
 */
export async function migrateVersions(
  store: Store,
  pluralName: string,
  fn: (version: Record<string, unknown>) => boolean,
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  const { documents } = await store.loadCollection(pluralName);
  let changed = 0;
  let seen = 0;
  for (const doc of documents) {
    onProgress?.(seen++, documents.length);
    const body = doc.body;
    let hit = false;
    const visit = (slot: unknown) => {
      if (!slot || typeof slot !== 'object') return;
      for (const status of ['draft', 'published']) {
        const v = (slot as Record<string, unknown>)[status];
        if (v && typeof v === 'object' && fn(v as Record<string, unknown>)) hit = true;
      }
    };
    if (body.locales && typeof body.locales === 'object') for (const slot of Object.values(body.locales)) visit(slot);
    else visit(body);
    if (hit) {
      await store.write(pluralName, doc.documentId, body);
      changed++;
    }
  }
  return changed;
}

/** Renames a key in an object, keeping its position. */
export function renameKey(obj: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k === from ? to : k] = v;
  return out;
}
