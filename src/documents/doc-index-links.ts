import { linkDocumentId } from './file-format.js';
import type { DocumentRecord, Version } from './model.js';
import type { TypeIndex } from './doc-index-type.js';

function addTargets(v: Version | undefined, attr: string, out: string[]) {
  const value = v?.data[attr];
  if (typeof value === 'string') out.push(linkDocumentId(value));
  else if (Array.isArray(value))
    for (let i = 0; i < value.length; i++) if (typeof value[i] === 'string') out.push(linkDocumentId(value[i]));
}

/**
 * The documentIds `doc`'s owning relation `attr` points at, in any version, into `out` (emptied first). Every
 * document of a large type is linked as it is prepared: no iterator, pair or array is made per document (nor a
 * closure for `SlotMap.forEach`, which most documents, of one locale, do not need).
 */
function relationTargets(doc: DocumentRecord, attr: string, out: string[]): string[] {
  out.length = 0;
  if (doc.slots.size === 1) {
    const slot = doc.slots.first()!;
    addTargets(slot.draft, attr, out);
    addTargets(slot.published, attr, out);
  } else
    for (const slot of doc.slots.values()) {
      addTargets(slot.draft, attr, out);
      addTargets(slot.published, attr, out);
    }
  return out;
}

/** Reused by the two functions below, which call nothing that could link or unlink meanwhile. */
const targets: string[] = [];

/** Records `doc` among the referrers of every target of its owning relations. */
export function linkRelations(t: TypeIndex, doc: DocumentRecord) {
  t.reverse.forEach((map, attr) => {
    for (const target of relationTargets(doc, attr, targets)) {
      let set = map.get(target);
      if (!set) map.set(target, (set = new Set()));
      set.add(doc.documentId);
    }
  });
}

/** Takes `doc` out of the referrers of every target of its owning relations. */
export function unlinkRelations(t: TypeIndex, doc: DocumentRecord) {
  t.reverse.forEach((map, attr) => {
    for (const target of relationTargets(doc, attr, targets)) map.get(target)?.delete(doc.documentId);
  });
}
