import { notFound } from '../errors.js';
import type { SchemaRegistry } from '../schema/registry.js';
import type { ContentType } from '../schema/types.js';
import { type DocumentWrites, cloneDocument } from './document-writes.js';
import { publishedCopy, syncSharedFields } from './locale-versions.js';
import { type DocumentRecord, type Slot, type Version, copyVersion } from './model.js';
import { checkPublishable } from './publish-checks.js';
import type { UniqueValues } from './unique-values.js';
import type { WriteNote } from './write-record.js';

/** One step of a locale's draft & publish lifecycle, on a working copy: the event and version it makes, if any. */
export type LifecycleStep = (
  ct: ContentType,
  doc: DocumentRecord,
  slot: Slot,
  key: string,
) => { event: string; version: Version; release?: () => void } | undefined;

/**
 * Runs a lifecycle step on the locale `key` of a document as one write: 404 when the document or the locale
 * does not exist; nothing is written when the step has nothing to do. What the step claimed is released once written.
 */
export function runLifecycle(
  writes: DocumentWrites,
  emit: (event: string, ct: ContentType, version: Version) => void,
  ct: ContentType,
  documentId: string,
  key: string,
  step: LifecycleStep,
  note?: WriteNote,
): Promise<Version | undefined> {
  return writes.writing(ct, documentId, async () => {
    if (note) writes.describe(note);
    const current = writes.current(ct, documentId);
    if (!current) throw notFound();
    const doc = cloneDocument(current);
    const slot = doc.slots.get(key);
    if (!slot) throw notFound();
    const result = step(ct, doc, slot, key);
    if (!result) return undefined;
    await writes.commit(ct, doc, new Map()).finally(result.release);
    emit(result.event, ct, result.version);
    return result.version;
  });
}

/**
 * Publishes the draft (the document service's `publish`; over REST a PUT does this). Its unique values stay
 * claimed until the write is indexed.
 */
export const publishStep =
  (schemas: SchemaRegistry, unique: UniqueValues): LifecycleStep =>
  (ct, doc, slot, key) => {
    if (!slot.draft) return undefined;
    checkPublishable(schemas, unique, ct, slot.draft, undefined, false);
    const release = unique.claim(ct, slot.draft);
    slot.published = publishedCopy(slot.draft);
    syncSharedFields(ct, doc, key, slot.published);
    return { event: 'entry.publish', version: slot.published, release };
  };

/** Removes the published version, keeping the draft. */
export const unpublishStep: LifecycleStep = (_ct, _doc, slot) => {
  if (!slot.published) return undefined;
  const gone = slot.published;
  delete slot.published;
  return { event: 'entry.unpublish', version: slot.draft ?? gone };
};

/** Replaces the draft with a copy of the published version. */
export const discardStep: LifecycleStep = (_ct, _doc, slot) => {
  if (!slot.published) return undefined;
  // The published version's updatedAt stays, as in Strapi: the draft reads as unmodified.
  slot.draft = copyVersion(slot.published, {
    id: 0,
    status: 'draft',
    publishedAt: null,
    data: structuredClone(slot.published.data),
  });
  return { event: 'entry.draft-discard', version: slot.draft };
};
