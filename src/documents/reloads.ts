import type { ContentType } from '../schema/types.js';
import { type Store, textDigest } from '../store/store.js';
import { parseDocumentText } from '../store/document-text.js';
import type { KeyedLock } from '../store/atomic.js';
import { decodeDocument } from './file-format.js';
import type { DocumentIndex } from './doc-index.js';
import type { IndexedTexts } from './indexed-texts.js';
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
  /** The text each indexed document was taken from (written as, or read). */
  texts: IndexedTexts;
  /** The per-document lock writes hold: a re-indexing waits for them. */
  lock: KeyedLock;
  checkValues: ValuesCheck;
  emit: (event: string, ct: ContentType, version: Version) => void;
  /** Told of a document file found invalid after the load report was made. */
  onProblem: (problem: { file: string; message: string }) => void;
}

/**
 * Follows one document file after a change on disk (another process, an editor, a git checkout): nothing to do
 * when the index holds what the file's text says (this process wrote that very text, or read it already); else the
 * document is indexed again from it.
 */
export async function reloadDocument(cx: ReloadContext, ct: ContentType, documentId: string): Promise<ReindexResult> {
  const before = cx.index.get(ct.uid, documentId);
  let text: string | undefined;
  try {
    text = await cx.store.readTextAsync(ct.pluralName, documentId);
  } catch {
    return refreshDocument(cx, ct, documentId);
  }
  if (cx.texts.holds(cx.index.get(ct.uid, documentId), text)) return 'unchanged';
  // Read before the document's lock was held: a write of this process that replaced the file since (it indexed a
  // new copy) makes the text old, and the file is read again.
  const replaced = () => cx.index.get(ct.uid, documentId) !== before;
  return reindex(cx, ct, documentId, () => (replaced() ? cx.store.readText(ct.pluralName, documentId) : text));
}

/** Indexes one document again from its file as it is now (read under the document's lock). */
export function refreshDocument(cx: ReloadContext, ct: ContentType, documentId: string): Promise<ReindexResult> {
  return reindex(cx, ct, documentId, () => cx.store.readText(ct.pluralName, documentId));
}

/**
 * Indexes one document again from `read()`, its file's text (undefined: gone), read under the document's lock
 * and indexed in the same turn, so no write of it lands in between; nothing to do when the index holds that text.
 */
function reindex(
  cx: ReloadContext,
  ct: ContentType,
  documentId: string,
  read: () => string | undefined,
): Promise<ReindexResult> {
  return cx.lock.run(`${ct.uid}/${documentId}`, async () => {
    // Looking the document up fills the type's documentId map: a slice at a time, not all at once.
    await cx.index.whenMapped(ct.uid);
    const existed = cx.index.get(ct.uid, documentId);
    let text: string | undefined;
    let body: Record<string, unknown> | undefined;
    try {
      text = read();
      if (cx.texts.holds(existed, text)) return 'unchanged';
      body = text === undefined ? undefined : parseDocumentText(text, documentId);
    } catch (err) {
      return { problem: (err as Error).message };
    }
    if (body === undefined) {
      if (!existed) return 'unchanged';
      cx.index.remove(ct.uid, documentId);
      for (const v of versions(existed)) cx.emit('entry.delete', ct, v);
      return 'removed';
    }
    try {
      const doc = decodeDocument(ct, documentId, body);
      const problem = cx.checkValues(ct, body);
      if (problem) return { problem };
      cx.index.put(doc);
      cx.texts.took(doc, textDigest(text!));
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
    void refreshDocument(cx, ct, doc.documentId);
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
