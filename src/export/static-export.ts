import { join } from 'node:path';
import type { Project } from '../project.js';
import { Reader, type PreparedRead } from '../query/reader.js';
import { isOwningSide, type ContentType } from '../schema/types.js';
import { serialize } from '../store/serialize.js';
import { FileSink } from './file-sink.js';

/** Where the export reports how far it is (the CLI draws it as a progress line on a terminal). */
export interface ExportProgress {
  total(files: number): void;
  tick(): void;
}

/** One list to export: a collection type in one locale (`locale` undefined on types without locales). */
interface ListPlan {
  ct: ContentType;
  locale: string | undefined;
  prefix: string;
  first: { data: Array<Record<string, unknown>>; meta: { pagination: Record<string, number> } };
}

/**
 * Writes the published content as the API answers it (see `folio export --help` for the layout) into
 * `<out>/api/`, page by page: each list page is read, written with every document on it (a document's own
 * file is its entry on the page, shaped once), and let go, so memory stays that of the open project however
 * many documents there are. Reads are the CLI's own, outside the `read` limits that bound one HTTP answer.
 */
export function exportStatic(project: Project, out: string, progress?: ExportProgress): number {
  const sink = new FileSink(join(out, 'api'), () => progress?.tick());
  try {
    exportInto(project, sink, progress);
    sink.commit();
  } catch (err) {
    sink.abandon();
    throw err;
  }
  return sink.written;
}

function exportInto(project: Project, sink: FileSink, progress?: ExportProgress) {
  const reader = new Reader(project);
  const singles: Array<[file: string, data: Record<string, unknown>]> = [];
  const lists: ListPlan[] = [];
  for (const ct of project.schemas.contentTypes.values()) {
    const locales = ct.localized ? project.config.locales.map((l) => l.code) : [undefined];
    for (const locale of locales) {
      const suffix = locale && locale !== project.config.defaultLocale ? locale : undefined;
      if (ct.kind === 'singleType') {
        const data = project.documents.singleDocument(ct) && read(reader, ct, locale, {}, 'findOne').single();
        if (data) singles.push([`${ct.singularName}${suffix ? `.${suffix}` : ''}.json`, data]);
        continue;
      }
      const first = read(reader, ct, locale, { pagination: { page: '1' } }).find() as ListPlan['first'];
      lists.push({ ct, locale, prefix: `${ct.pluralName}${suffix ? `/${suffix}` : ''}`, first });
    }
  }
  // Without counts (rest.withCount false) the pages are known only once read: no total is shown then.
  let total: number | undefined = singles.length;
  for (const { first } of lists) {
    const { pageCount, total: docs } = first.meta.pagination;
    total = pageCount === undefined || total === undefined ? undefined : total + Math.max(1, pageCount) + 1 + docs;
  }
  if (total !== undefined) progress?.total(total);
  for (const [file, data] of singles) sink.write(file, serialize({ data, meta: {} }));
  for (const list of lists) exportList(reader, sink, list);
}

function exportList(reader: Reader, sink: FileSink, list: ListPlan) {
  const { ct, locale, prefix } = list;
  const counted = list.first.meta.pagination.pageCount !== undefined;
  let result = list.first;
  for (let page = 1; ;) {
    const text = serialize(result);
    if (page === 1) sink.write(`${prefix}/index.json`, text);
    sink.write(`${prefix}/page/${page}.json`, text);
    for (const data of result.data)
      sink.write(`${prefix}/${String(data.documentId)}.json`, serialize({ data, meta: {} }));
    const { pageCount, pageSize } = result.meta.pagination;
    if (counted ? page >= pageCount : result.data.length < pageSize) break;
    page++;
    result = read(reader, ct, locale, { pagination: { page: String(page) } }).find() as ListPlan['first'];
  }
}

function read(
  reader: Reader,
  ct: ContentType,
  locale: string | undefined,
  extra: Record<string, unknown>,
  kind: 'find' | 'findOne' = 'find',
): PreparedRead {
  return reader.prepare(ct, { populate: populated(ct), ...(locale ? { locale } : {}), ...extra }, kind).unbounded();
}

const populations = new WeakMap<ContentType, Record<string, true>>();

/**
 * What `populate=*` populates, but the inverse sides of relations (an author's `articles`): those documents
 * are exported from the side that holds the link, and populating them would put every article of an author
 * in the author's file and in every page that lists the author.
 */
export function populated(ct: ContentType): Record<string, true> {
  let p = populations.get(ct);
  if (p) return p;
  p = {};
  for (const [name, a] of Object.entries(ct.attributes)) {
    const kept =
      a.type === 'relation'
        ? isOwningSide(a) && !a.relation.startsWith('morph')
        : a.type === 'media' || a.type === 'component' || a.type === 'dynamiczone';
    if (kept && !a.private) p[name] = true;
  }
  if (ct.localized) p.localizations = true;
  populations.set(ct, p);
  return p;
}
