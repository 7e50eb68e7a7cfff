import { textDigest } from '../store/store.js';
import type { DocumentRecord } from './model.js';

/**
 * The file text each indexed document was taken from: written as by this process, or read from its file (a
 * change on disk). A change seen on disk is no change when the file holds that very text again; any other text,
 * whoever wrote it and whatever the file held before (a write of this process undone by `git checkout`), is.
 */
export class IndexedTexts {
  private readonly digests = new WeakMap<DocumentRecord, string>();

  /** Records that `doc` was taken from the text of this digest. */
  took(doc: DocumentRecord, digest: string) {
    this.digests.set(doc, digest);
  }

  /** Whether the indexed `doc` (undefined: none) is what a file holding `text` (undefined: none) says. */
  holds(doc: DocumentRecord | undefined, text: string | undefined): boolean {
    if (!doc || text === undefined) return !doc && text === undefined;
    const digest = this.digests.get(doc);
    return digest !== undefined && digest === textDigest(text);
  }
}
