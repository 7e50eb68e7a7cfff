import { validationError } from '../errors.js';
import type { SchemaRegistry } from '../schema/registry.js';
import type { Attribute, ContentType } from '../schema/types.js';
import type { DocumentIndex } from './doc-index.js';
import { type DocumentWrites, cloneDocument } from './document-writes.js';
import { refusedMediaType, type MediaLibrary } from './media.js';
import { NO_LOCALE, versions } from './model.js';
import { targetList } from './relations.js';
import type { Actor } from './write-record.js';

/**
 * Maps media references from a body (file ids or documentIds) to the documentIds of existing files of an
 * allowed type (400 otherwise).
 */
export function resolveMedia(
  media: MediaLibrary,
  refs: Array<string | number> | string | number | null,
  path: string[],
  attr: Attribute | undefined,
  entry?: () => Record<string, unknown>,
): string | string[] | null {
  const one = (r: string | number) => {
    const f = media.resolve(r);
    const refused = f && attr?.type === 'media' ? refusedMediaType(attr.allowedTypes, f.mime) : undefined;
    if (refused) {
      const message = `${path.join('.')} ${refused}`;
      throw validationError(message, { errors: [{ path, message, name: 'ValidationError', value: r }] });
    }
    if (!f) {
      throw validationError('1 relation(s) of type plugin::upload.file associated with this entity do not exist', {
        errors: [
          {
            path: [],
            message: '1 relation(s) of type plugin::upload.file associated with this entity do not exist',
            name: 'ValidationError',
            ...(entry ? { value: entry() } : {}),
          },
        ],
      });
    }
    return f.documentId;
  };
  if (refs === null) return null;
  if (Array.isArray(refs)) return refs.map(one);
  return one(refs);
}

/** What linking and unlinking media files in document versions needs. */
export interface MediaLinkContext {
  schemas: SchemaRegistry;
  index: DocumentIndex;
  writes: DocumentWrites;
}

/**
 * Appends a media file to a media field of the version with numeric `id` (the upload plugin's
 * `ref` / `refId` / `field`); a single media field is replaced. Returns false when there is no such version.
 */
export async function linkMedia(
  cx: MediaLinkContext,
  ct: ContentType,
  versionId: number,
  field: string,
  fileDocumentId: string,
  actor?: Actor,
): Promise<boolean> {
  const attr = ct.attributes[field];
  if (!attr || attr.type !== 'media') throw validationError(`${field} is not a media field of ${ct.uid}`);
  const found = cx.index.byId(ct.uid, versionId);
  if (!found) return false;
  return cx.writes.writing(ct, found.documentId, async () => {
    cx.writes.describe({ actor, action: `add media to ${field}`, locale: found.locale });
    const current = cx.writes.current(ct, found.documentId);
    if (!current) return false;
    const doc = cloneDocument(current);
    const v = versions(doc).find((x) => x.id === versionId);
    if (!v) return false;
    // Linking a published version also links its draft, so the next publish keeps the file.
    const slot = doc.slots.get(v.locale ?? NO_LOCALE);
    const targets = v.status === 'published' && slot?.draft ? [v, slot.draft] : [v];
    for (const t of targets)
      t.data[field] = attr.multiple ? [...targetList(t.data[field]), fileDocumentId] : fileDocumentId;
    await cx.writes.commit(ct, doc, new Map());
    return true;
  });
}

/** Removes a deleted media file from every media field (also inside components and zones) that used it. */
export async function detachMedia(cx: MediaLinkContext, fileDocumentId: string, actor?: Actor): Promise<number> {
  let changed = 0;
  const strip = (attrs: Record<string, Attribute>, data: Record<string, unknown>): boolean => {
    let hit = false;
    for (const [name, attr] of Object.entries(attrs)) {
      const value = data[name];
      if (attr.type === 'media') {
        if (value === fileDocumentId) {
          data[name] = null;
          hit = true;
        } else if (Array.isArray(value) && value.includes(fileDocumentId)) {
          data[name] = value.filter((x) => x !== fileDocumentId);
          hit = true;
        }
      } else if (attr.type === 'component' || attr.type === 'dynamiczone') {
        const items = Array.isArray(value) ? value : value ? [value] : [];
        for (const item of items as Array<Record<string, unknown>>) {
          const uid = attr.type === 'component' ? attr.component : (item.__component as string);
          const comp = cx.schemas.components.get(uid);
          if (comp && strip(comp.attributes, item)) hit = true;
        }
      }
    }
    return hit;
  };
  for (const ct of cx.schemas.contentTypes.values()) {
    for (const indexed of [...cx.index.documents(ct.uid)]) {
      // Only documents whose indexed copy names the file are read again and rewritten: a documentId
      // is 24 random characters, so its text in the values is a safe first filter.
      if (!versions(indexed).some((v) => JSON.stringify(v.data).includes(fileDocumentId))) continue;
      const documentId = indexed.documentId;
      const hit = await cx.writes.writing(ct, documentId, async () => {
        cx.writes.describe({ actor, action: 'remove a deleted media file' });
        const current = cx.writes.current(ct, documentId);
        if (!current) return false;
        const doc = cloneDocument(current);
        let found = false;
        for (const v of versions(doc)) if (strip(ct.attributes, v.data)) found = true;
        if (found) await cx.writes.commit(ct, doc, new Map());
        return found;
      });
      if (hit) changed++;
    }
  }
  return changed;
}
