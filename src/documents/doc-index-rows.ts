import type { ContentType } from '../schema/types.js';
import type { IdTable } from './id-table.js';
import type { DocumentRecord, Status, Version } from './model.js';
import type { RowList, TypeIndex, VersionPick } from './doc-index-type.js';

/** The rows of a read while documents wait to be made: their ids, made into versions only as they are read. */
export class WaitingRows implements RowList {
  constructor(
    private readonly ids: Int32Array,
    private readonly table: IdTable,
  ) {}
  get length() {
    return this.ids.length;
  }
  slice(start?: number, end?: number): Version[] {
    const out: Version[] = [];
    for (const id of this.ids.subarray(start, end)) out.push(this.table.get(id)!);
    return out;
  }
}

/** Non-D&P types have one version, visible to draft and published reads alike. */
export function pickVersion(ct: ContentType, slot: { draft?: Version; published?: Version }, status: Status) {
  if (!ct.draftAndPublish) return slot.published ?? slot.draft;
  return status === 'draft' ? slot.draft : slot.published;
}

/**
 * The versions a read sees, in id order (Strapi's default order). While documents wait to be made, a
 * list of their ids that makes them only as they are read. `docs`: the type's documents by documentId.
 */
export function buildRows(t: TypeIndex, pick: VersionPick, docs: () => Map<string, DocumentRecord>): RowList {
  const everyLocale = !t.ct.localized || pick.locale === '*';
  if (t.nextId <= 2 * t.ids.size + 64) {
    // Dense ids (the usual case): walking them in order gives id order without sorting 100,000 rows.
    const status = t.ct.draftAndPublish ? pick.status : undefined;
    const locale = everyLocale ? undefined : pick.locale;
    return t.waiting
      ? new WaitingRows(t.ids.idsInOrder(t.nextId, status, locale), t.ids)
      : t.ids.inOrder(t.nextId, status, locale);
  }
  const list: Version[] = [];
  for (const doc of docs().values()) {
    for (const [code, slot] of doc.slots) {
      if (!everyLocale && code !== pick.locale) continue;
      const v = pickVersion(t.ct, slot, pick.status);
      if (v) list.push(v);
    }
  }
  return list.sort((a, b) => a.id - b.id);
}
