import { api, query } from './api';
import { endpoint, type ContentType } from './model';

export type Status = 'draft' | 'published' | 'modified';

export interface Doc {
  id: number;
  documentId: string;
  locale?: string;
  updatedAt: string;
  publishedAt: string | null;
  [field: string]: unknown;
}

/**
 * Draft, published or modified, for documents read as drafts: their published versions are read too,
 * and a draft whose `updatedAt` differs from its published version's was changed since it was published.
 */
export async function statusesOf(type: ContentType, drafts: Doc[], locale?: string): Promise<Map<string, Status>> {
  const out = new Map<string, Status>();
  if (!type.draftAndPublish) {
    for (const d of drafts) out.set(d.documentId, 'published');
    return out;
  }
  for (const d of drafts) out.set(d.documentId, 'draft');
  if (!drafts.length) return out;
  const params: Record<string, string | number | undefined> = {
    status: 'published',
    'fields[0]': 'updatedAt',
    locale,
  };
  if (type.kind === 'collectionType') {
    params['pagination[pageSize]'] = drafts.length;
    drafts.forEach((d, i) => (params[`filters[documentId][$in][${i}]`] = d.documentId));
  }
  const { data } = await api<{ data: Doc[] | Doc | null }>('GET', `${endpoint(type)}${query(params)}`).catch(() => ({
    data: null,
  }));
  const published = data === null ? [] : Array.isArray(data) ? data : [data];
  for (const p of published) {
    const draft = drafts.find((d) => d.documentId === p.documentId);
    if (draft) out.set(p.documentId, draft.updatedAt === p.updatedAt ? 'published' : 'modified');
  }
  return out;
}

/** What a document has, from `/_folio/studio/document/…`: its versions by locale, and which private fields are set. */
export interface DocumentState {
  exists: boolean;
  /** By locale code (`""` on a type without locales): when its draft and its published version last changed. */
  locales: Record<string, { draft: string | null; published: string | null }>;
  /** Private fields holding a value; null when the role may not change the document. */
  private: Record<string, boolean> | null;
}

export async function readDocumentState(
  type: ContentType,
  documentId: string | undefined,
  locale?: string,
): Promise<DocumentState> {
  const route = type.kind === 'singleType' ? type.singularName : `${type.pluralName}/${documentId}`;
  return (await api<{ data: DocumentState }>('GET', `/_folio/studio/document/${route}${query({ locale })}`)).data;
}

/** A document's status in a locale, as the list shows it. */
export function statusIn(type: ContentType, state: DocumentState, locale?: string): Status | undefined {
  const v = state.locales[locale ?? ''];
  if (!v) return undefined;
  if (!type.draftAndPublish) return 'published';
  return v.published === null ? 'draft' : v.published === v.draft ? 'published' : 'modified';
}
