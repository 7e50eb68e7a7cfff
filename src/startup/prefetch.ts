import type { TextFetch } from '../documents/doc-index.js';
import type { DocumentRecord } from '../documents/model.js';
import type { ContentType } from '../schema/types.js';
import { BLOCK_FILES, readersFor, startReaders } from './parallel-read.js';
import { META } from './read-block.js';
import { lazySourceOf } from './lazy.js';

/**
 * Texts of documents indexed without them, read on reader threads ahead of their decoding: preparing a large
 * type after a start decodes every document, and reading a million files one by one on the main thread was
 * most of the wait for the first filtered query. The threads read the files in blocks in the order the
 * documents will be decoded, at most `AHEAD` blocks past the one being decoded, so the texts held stay few.
 * A file a thread could not read (gone, broken) gets no text: its document reads its file itself, and
 * reports what is wrong as before.
 */
const AHEAD = 6;

export function fetchTexts(contentDir: string, ct: ContentType, docs: DocumentRecord[]): TextFetch {
  const readers = startReaders(contentDir, ct, readersFor(docs.length));
  const ids = { length: docs.length, at: (i: number) => docs[i]?.documentId };
  const blocks = readers.read(ids, 'texts', AHEAD);
  let got = 0;
  let ended = false;
  let pulling: Promise<void> | undefined;
  const pull = async () => {
    try {
      const next = await blocks.next();
      if (next.done || ended) {
        ended = true;
        return;
      }
      // The texts of the block before are to be overwritten (see Readers.read): what a document passed over
      // (taken out or decoded meanwhile) still holds of them is let go.
      for (let i = Math.max(0, got - BLOCK_FILES); i < got; i++) lazySourceOf(docs[i])?.provide(undefined);
      const { meta: m, chunks } = next.value;
      for (const at of next.value.starts) {
        const doc = docs[got + m[at + META.index]];
        lazySourceOf(doc)?.provide(chunks[m[at + META.chunk]], m[at + META.offset], m[at + META.length]);
      }
      got = Math.min(docs.length, got + BLOCK_FILES);
    } catch {
      ended = true;
    } finally {
      pulling = undefined;
    }
  };
  return {
    until(n) {
      if (ended || n <= got) return undefined;
      return (pulling ??= pull());
    },
    close() {
      ended = true;
      readers.close();
      void blocks.return(undefined);
    },
  };
}
