import type { SchemaRegistry } from '../schema/registry.js';
import { type ContentType, type RelationAttribute, isRelation, isToMany } from '../schema/types.js';
import { linkEntry, linkParts, linksNameLocale } from './file-format.js';
import { type DocumentRecord, type Version, versions } from './model.js';
import { componentsOf, componentsReaching, eachRelation } from './relation-walk.js';

/**
 * A change of the project's locales that changes what stored links mean: the default locale (whose versions
 * bare links name) going from `from` to `to`, and `removed`, a locale going away with its versions.
 */
export interface LocaleChange {
  from: string;
  to: string;
  removed?: string;
}

/**
 * A link of a type without locales to a localized one, rewritten so it names the same version after the change
 * (see file-format.ts); undefined when that version goes with the removed locale.
 */
export function relink(entry: string, change: LocaleChange): string | undefined {
  const { documentId, locale } = linkParts(entry);
  const named = locale ?? change.from;
  if (named === change.removed) return undefined;
  return linkEntry(documentId, named, change.to);
}

/**
 * Rewrites, in a version of `ct`, every link that names a locale (top-level relations and relations inside
 * components and zones, where `ct` has no locales and the target has). Returns whether anything changed.
 */
export function relinkVersion(schemas: SchemaRegistry, ct: ContentType, v: Version, change: LocaleChange): boolean {
  if (ct.localized) return false;
  let changed = false;
  eachRelation(schemas, ct.attributes, v.data, (attr, value, set) => {
    const target = schemas.contentTypes.get(attr.target);
    if (!target || !linksNameLocale(ct, target) || value === null || value === undefined) return;
    const before = Array.isArray(value) ? value : [value];
    const after = before.flatMap((x) => (typeof x === 'string' ? (relink(x, change) ?? []) : [x]));
    if (after.length === before.length && after.every((x, i) => x === before[i])) return;
    changed = true;
    set(isToMany(attr) ? after : (after[0] ?? null));
  });
  return changed;
}

/** Whether documents of `ct` may hold links that name a locale (itself or its components linking a localized type). */
export function mayNameLocales(schemas: SchemaRegistry, ct: ContentType): boolean {
  if (ct.localized) return false;
  const localizedTarget = (a: RelationAttribute) => !!schemas.contentTypes.get(a.target)?.localized;
  const reaching = componentsReaching(schemas, localizedTarget);
  return Object.values(ct.attributes).some((a) =>
    isRelation(a) ? localizedTarget(a) : componentsOf(a).some((uid) => reaching.has(uid)),
  );
}

/** What a locale change does to one document (a working copy, changed in place). */
export interface DocumentChange {
  relinked: boolean;
  /** The versions removed with the removed locale. */
  removed: Version[];
  /** Whether the document is left without any version (its file goes). */
  gone: boolean;
}

/** Applies a locale change to a working copy of a document of `ct`. */
export function changeDocument(
  schemas: SchemaRegistry,
  ct: ContentType,
  doc: DocumentRecord,
  change: LocaleChange,
): DocumentChange {
  const removed: Version[] = [];
  if (ct.localized && change.removed !== undefined) {
    const slot = doc.slots.get(change.removed);
    if (slot) {
      if (slot.draft) removed.push(slot.draft);
      if (slot.published) removed.push(slot.published);
      doc.slots.delete(change.removed);
    }
  }
  let relinked = false;
  for (const v of versions(doc)) if (relinkVersion(schemas, ct, v, change)) relinked = true;
  return { relinked, removed, gone: doc.slots.size === 0 };
}
