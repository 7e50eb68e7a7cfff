import type { ContentType } from '../schema/types.js';
import type { Store } from '../store/store.js';
import { parseDocumentText } from '../store/document-text.js';
import type { KeyedLock } from '../store/atomic.js';
import { decodeDocument } from './file-format.js';
import type { DocumentIndex } from './doc-index.js';
import type { ValuesCheck } from './document-writes.js';
import { type DocumentRecord, type Version, versions } from './model.js';

/** What filling the index needs of the service: the rules a file's values pass, and what to do with late findings. */
export interface LoadHooks {
  onStale: (ct: ContentType, doc: DocumentRecord) => void;
  check?: (ct: ContentType, body: Record<string, unknown>) => string | undefined;
  onInvalid?: (ct: ContentType, doc: DocumentRecord, problem: string) => void;
  /** The load's report once made: problems found later are added to it. */
  report?: { problems: Array<{ file: string; message: string }> };
}

export type ReindexResult = 'updated' | 'removed' | 'unchanged' | { problem: string };

/** What indexing a document again from its file needs. */
export interface ReloadContext {
  store: Store;
  index: DocumentIndex;
  /** The per-document lock writes hold: a re-indexing waits for them. */
  lock: KeyedLock;
  checkValues: ValuesCheck;
  emit: (event: string, ct: ContentType, version: Version) => void;
  /** Told of a document file found invalid after the load report was made. */
  onProblem: (problem: { file: string; message: string }) => void;
}

/**
 * Re-reads one document file after a change on disk (another process, an editor, a git checkout).
 * A file this process wrote itself is skipped. A broken file keeps the last good version in the index
 * and is reported. Returns what happened.
 */
export async function reloadDocument(
  cx: ReloadContext,
  ct: ContentType,
  documentId: string,
  file: string,
  text: string | undefined,
): Promise<'own' | ReindexResult> {
  if (cx.store.isOwnWrite(file, text)) return 'own';
  // The file held something else than this process wrote: a later return to that text (a file moved
  // back, a git switch) is a change to index, not an own write.
  cx.store.forgetOwnWrites(file);
  return reindex(cx, ct, documentId, () => (text === undefined ? undefined : parseDocumentText(text, documentId)));
}

/** Indexes one document again from its file as it is now (read under the document's lock). */
export function refreshDocument(cx: ReloadContext, ct: ContentType, documentId: string): Promise<ReindexResult> {
  cx.store.forgetOwnWrites(cx.store.fileOf(ct.pluralName, documentId));
  return reindex(cx, ct, documentId, () => cx.store.readDocument(ct.pluralName, documentId)?.body);
}

/** Indexes one document again from `body()` (its file's, read under the document's lock; undefined: gone). */
function reindex(
  cx: ReloadContext,
  ct: ContentType,
  documentId: string,
  body: () => Record<string, unknown> | undefined,
): Promise<ReindexResult> {
  return cx.lock.run(`${ct.uid}/${documentId}`, async () => {
    // Looking the document up fills the type's documentId map: a slice at a time, not all at once.
    await cx.index.whenMapped(ct.uid);
    const existed = cx.index.get(ct.uid, documentId);
    let read: Record<string, unknown> | undefined;
    try {
      read = body();
    } catch (err) {
      return { problem: (err as Error).message };
    }
    if (read === undefined) {
      if (!existed) return 'unchanged';
      cx.index.remove(ct.uid, documentId);
      for (const v of versions(existed)) cx.emit('entry.delete', ct, v);
      return 'removed';
    }
    try {
      const doc = decodeDocument(ct, documentId, read);
      const problem = cx.checkValues(ct, read);
      if (problem) return { problem };
      cx.index.put(doc);
      const first = versions(doc)[0];
      if (first) cx.emit(existed ? 'entry.update' : 'entry.create', ct, first);
      return 'updated';
    } catch (err) {
      return { problem: (err as Error).message };
    }
  });
}

/**
 * What filling the index at start needs: files that changed since they were indexed are indexed again,
 * and values are checked by the write rules (unless `checkValues` is false).
 */
export function loadHooks(cx: ReloadContext, checkValues = true): LoadHooks {
  // A document decoded from a file that changed since start: indexed again, as a change on disk is
  // (unless written or removed here since, which indexed it already).
  const onStale = (ct: ContentType, doc: DocumentRecord) => {
    if (cx.index.get(ct.uid, doc.documentId) !== doc) return;
    void reindex(cx, ct, doc.documentId, () => cx.store.readDocument(ct.pluralName, doc.documentId)?.body);
  };
  const hooks: LoadHooks = { onStale };
  if (!checkValues) return hooks;
  // A document decoded after start (read on a thread, or from the snapshot) whose values fail the write
  // rules: taken out of the index, as it would not have been indexed had it been checked at start.
  hooks.check = cx.checkValues;
  hooks.onInvalid = (ct: ContentType, doc: DocumentRecord, message: string) => {
    const file = cx.store.fileOf(ct.pluralName, doc.documentId);
    hooks.report?.problems.push({ file, message });
    cx.onProblem({ file, message });
    void cx.lock.run(`${ct.uid}/${doc.documentId}`, async () => {
      if (cx.index.get(ct.uid, doc.documentId) === doc) cx.index.remove(ct.uid, doc.documentId);
    });
  };
  return hooks;
}
