import type { FolioConfig } from '../config.js';
import type { SchemaRegistry } from '../schema/registry.js';
import type { ContentType } from '../schema/types.js';
import type { DocumentIndex } from './doc-index.js';
import { type DocumentWrites, cloneDocument } from './document-writes.js';
import { type DocumentChange, type LocaleChange, changeDocument, mayNameLocales } from './locale-change.js';
import type { DocumentRecord, Version } from './model.js';
import type { Actor } from './write-record.js';

/** A change of the project's locales (see `changeLocales`): the new default locale, and a locale removed. */
export interface LocalesChange {
  defaultLocale: string;
  removed?: string;
}

/** The documents a change of locales rewrites (links renamed or removed, versions removed) or removes. */
export interface LocalesChangeResult {
  /** Documents whose links were rewritten (not counting those removed). */
  relinked: number;
  /** Documents that had versions in the removed locale, and how many versions went. */
  withVersions: number;
  versionsRemoved: number;
  /** Documents left without any version, whose files were removed. */
  documentsRemoved: number;
}

/** One document a change of locales alters: its working copy, changed in place, and what changed. */
export type PlannedChange = DocumentChange & { ct: ContentType; doc: DocumentRecord };

/**
 * The documents a change of locales alters, each a working copy with the change applied. Only those the change
 * alters in the index are read again (with `read`: from the index for a preview, from their files for a write).
 */
export function planLocalesChange(
  schemas: SchemaRegistry,
  config: FolioConfig,
  index: DocumentIndex,
  next: LocalesChange,
  read: (ct: ContentType, documentId: string) => DocumentRecord | undefined,
): PlannedChange[] {
  const change: LocaleChange = { from: config.defaultLocale, to: next.defaultLocale, removed: next.removed };
  const plan: PlannedChange[] = [];
  for (const ct of schemas.contentTypes.values()) {
    if (ct.localized ? change.removed === undefined : !mayNameLocales(schemas, ct)) continue;
    for (const indexed of [...index.documents(ct.uid)]) {
      if (ct.localized && !indexed.slots.has(change.removed!)) continue;
      // Only the documents the change alters are read again from their files (and written).
      const probe = changeDocument(schemas, ct, cloneDocument(indexed), change);
      if (!probe.relinked && !probe.removed.length) continue;
      const current = read(ct, indexed.documentId);
      if (!current) continue;
      const doc = cloneDocument(current);
      const result = changeDocument(schemas, ct, doc, change);
      if (result.relinked || result.removed.length) plan.push({ ...result, ct, doc });
    }
  }
  return plan;
}

/** What a planned change of locales does, counted. */
export function localesChangeResult(plan: PlannedChange[]): LocalesChangeResult {
  return {
    relinked: plan.filter((p) => p.relinked && !p.gone).length,
    withVersions: plan.filter((p) => p.removed.length).length,
    versionsRemoved: plan.reduce((n, p) => n + p.removed.length, 0),
    documentsRemoved: plan.filter((p) => p.gone).length,
  };
}

/**
 * Changes the default locale and removes a locale as one write under the project's write lock (see
 * `DocumentService.changeLocales`). `save` writes the new settings first and answers how to put them back, which
 * is done when the documents cannot all be written.
 */
export function commitLocalesChange(
  schemas: SchemaRegistry,
  config: FolioConfig,
  index: DocumentIndex,
  writes: DocumentWrites,
  emit: (event: string, ct: ContentType, version: Version) => void,
  next: LocalesChange,
  save: () => Promise<() => Promise<void>>,
  actor?: Actor,
): Promise<LocalesChangeResult> {
  const action = next.removed ? `remove ${next.removed}` : `default ${next.defaultLocale}`;
  return writes.writingAll(async () => {
    writes.describe({ actor, action, subject: 'locales' });
    const read = (ct: ContentType, id: string) => writes.current(ct, id);
    const plan = planLocalesChange(schemas, config, index, next, read);
    const restore = await save();
    try {
      await writes.commitAll(
        plan.filter((p) => !p.gone).map((p) => p.doc),
        plan.filter((p) => p.gone).map((p) => ({ ct: p.ct, documentId: p.doc.documentId })),
      );
    } catch (err) {
      await restore();
      throw err;
    }
    for (const p of plan) for (const v of p.removed) emit('entry.delete', p.ct, v);
    return localesChangeResult(plan);
  });
}
