import { LOCALE_CODE } from '../config.js';
import { paginationError, validationError } from '../errors.js';
import type { Status, Version } from '../documents/model.js';
import { NO_LOCALE } from '../documents/model.js';
import type { ContentType } from '../schema/types.js';
import { isScalar } from '../schema/types.js';
import type { ReadContext } from './context.js';
import { parseFields } from './fields.js';
import { compileFilters, type Predicate } from './filters.js';
import { type Pagination, parsePagination } from './pagination.js';
import { type FoundPage, findLater, findNow } from './find.js';
import { finish, shapingJobs } from './ready.js';
import { type PageBody, pageBody } from './bodies.js';
import { NO_POPULATE, readPopulate } from './populate-memo.js';
import { ReadBudget } from './bounds.js';
import { type Scope, documentScope } from './scope.js';
import type { ColumnPart } from './plan.js';
import { sharedColumnParts } from './parts-memo.js';
import { type SortGetter, type SortKey, compileSort, documentSortGetters, parseSort } from './sort.js';
import { type Selection, shapeDocument } from './output.js';

export const ROOT_PARAMS = new Set([
  'filters',
  'sort',
  'fields',
  'populate',
  'status',
  'locale',
  'page',
  'pageSize',
  'start',
  'limit',
  '_q',
  'publicationFilter',
  'hasPublishedVersion',
  'pagination',
  'count',
  'ordering',
]);
const PUBLICATION_FILTERS = [
  'never-published',
  'has-published-version',
  'modified',
  'unmodified',
  'never-published-document',
  'has-published-version-document',
  'published-without-draft',
  'published-with-draft',
];

/** A request's query checked against the schema: what the route reads and how it shapes the answer. */
export interface ReadQuery {
  status: Status;
  /** null on non-localized types; `'*'` for all locales. */
  locale: string | null;
  filter?: Predicate;
  /** The `filters` parameter as given, and the sort keys: what the indexes answer (see plan.ts). */
  filters?: unknown;
  sortKeys: readonly SortKey[];
  sortBy?: SortGetter[];
  /** Whether the indexes may answer the query (not with `_q` or a publication filter). */
  plannable: boolean;
  /** The filter compiled over the indexes' columns at parse, for the first plan made of the query (see plan.ts). */
  columnParts?: ColumnPart[];
  /** Identifies the shape of the documents (`fields` and `populate` as given), for reusing shaped texts. */
  selectionKey: string;
  /** The parameters that decide the filtered, sorted row list (not the page or the shape), for the result cache. */
  resultParams: readonly unknown[];
  pagination?: Pagination;
  selection: Selection;
}

export type RouteKind = 'find' | 'findOne' | 'write' | 'delete';

/**
 * Checks the parameters of a content-type route in Strapi's order: status, strict root keys, filters,
 * sort, fields, populate; then pagination. Unknown keys are 400s.
 */
export function parseReadQuery(
  ctx: Omit<ReadContext, 'status'>,
  ct: ContentType,
  q: Record<string, unknown>,
  kind: RouteKind,
): { query: ReadQuery; context: ReadContext } {
  let status: Status = 'published';
  if (q.status !== undefined) {
    if (q.status !== 'draft' && q.status !== 'published') {
      throw validationError(
        `Invalid parameter at 'status'. Expected 'published' or 'draft', received: ${String(q.status)}`,
      );
    }
    status = q.status;
  }
  if (q.publicationFilter !== undefined && !PUBLICATION_FILTERS.includes(String(q.publicationFilter))) {
    throw validationError(
      "Invalid value for 'publicationFilter'. Expected one of: never-published, has-published-version, " +
        'modified, unmodified, never-published-document, has-published-version-document, ' +
        'published-without-draft, published-with-draft.',
      { source: 'query', param: 'publicationFilter' },
    );
  }
  if (ctx.config.rest.strictParams) {
    for (const key of Object.keys(q)) {
      if (!ROOT_PARAMS.has(key))
        throw validationError(`Invalid key ${key}`, { key, path: null, source: 'query', param: key });
    }
  }
  // Field by field: a spread of `ctx` costs several times more, per request. `satisfies` makes a field added to
  // ReadContext and left out here a type error rather than a field silently dropped.
  const context: ReadContext = {
    schemas: ctx.schemas,
    index: ctx.index,
    config: ctx.config,
    media: ctx.media,
    canFind: ctx.canFind,
    status,
    budget: ctx.config.read && new ReadBudget(ctx.config.read),
  } satisfies Record<keyof ReadContext, unknown>;
  const scope = documentScope(context, ct);
  const query: ReadQuery = {
    status,
    locale: null,
    selection: { populate: NO_POPULATE },
    resultParams: [],
    selectionKey:
      q.fields === undefined && q.populate === undefined
        ? '[null,null]'
        : JSON.stringify([q.fields ?? null, q.populate ?? null]),
    sortKeys: [],
    plannable: false,
  };

  const pubFilter =
    q.publicationFilter ??
    (q.hasPublishedVersion !== undefined
      ? String(q.hasPublishedVersion) === 'true'
        ? 'has-published-version'
        : 'never-published'
      : undefined);
  // A list query the indexes may answer has its filter compiled over their columns (see plan.ts), which checks
  // it too: the compile over versions is then made only if a row is read without the indexes.
  const plannable = kind === 'find' && q._q === undefined && pubFilter === undefined;
  const parts = plannable && q.filters !== undefined ? sharedColumnParts(context, ct, q.filters) : undefined;
  let filter = parts ? later(scope, q.filters) : compileFilters(scope, q.filters);
  if (q._q !== undefined && kind === 'find') filter = and(filter, searchPredicate(ct, String(q._q)));
  if (pubFilter !== undefined && ct.draftAndPublish && kind === 'find')
    filter = and(filter, publicationPredicate(context, ct, String(pubFilter)));
  query.filter = q.filters === undefined && q._q === undefined && pubFilter === undefined ? undefined : filter;
  query.columnParts = parts;

  if (kind === 'find') {
    query.sortKeys = parseSort(q.sort);
    query.sortBy = documentSortGetters(scope, ct, query.sortKeys);
    query.filters = q.filters;
    query.plannable = plannable;
  } else if (q.sort !== undefined) compileSort(scope, parseSort(q.sort));
  query.selection.fields = parseFields(ct, q.fields);
  query.selection.populate = readPopulate(context, ct, q.populate);

  if (ct.localized && q.locale !== undefined) {
    const locales = Array.isArray(q.locale) ? q.locale : [q.locale];
    const code = String(locales[0]);
    if (code !== '*' && !LOCALE_CODE.test(code)) {
      throw validationError(
        `Invalid parameter at 'locale'. Locale must be a valid BCP 47 format (e.g. en, en-US, zh-Hans).`,
      );
    }
    query.locale = code;
  } else if (ct.localized) {
    // A filter on `locale` without a `locale` parameter reads every locale (Strapi lets the filter decide).
    const filtersLocale = q.filters && typeof q.filters === 'object' && 'locale' in (q.filters as object);
    query.locale = filtersLocale && kind === 'find' ? '*' : ctx.config.defaultLocale;
  }

  // Made into a key only by a query the indexes cannot answer (see result-cache.ts).
  query.resultParams = [status, query.locale, q.filters ?? null, q.sort ?? null, q._q ?? null, pubFilter ?? null];
  if (kind === 'find') {
    if (q.page !== undefined || q.pageSize !== undefined) {
      if (ctx.config.rest.strictParams) {
        throw validationError(
          'Invalid pagination parameters. Cannot use both page-based (page, pageSize) and ' +
            'offset-based (start, limit) pagination in the same query.',
        );
      }
      throw paginationError(
        'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object',
      );
    }
    query.pagination = parsePagination(q.pagination, ctx.config.rest);
  }
  return { query, context };
}

/** `filters` over versions, compiled when a row is first tested (the compile over the columns checked it). */
function later(scope: Scope, filters: unknown): Predicate {
  let compiled: Predicate | undefined;
  return (row) => (compiled ??= compileFilters(scope, filters))(row);
}

const and =
  (a: Predicate, b: Predicate): Predicate =>
  (row) =>
    a(row) && b(row);

function searchPredicate(ct: ContentType, q: string): Predicate {
  const needle = q.toLowerCase();
  const textual = Object.entries(ct.attributes)
    .filter(
      ([, a]) =>
        isScalar(a) && ['string', 'text', 'richtext', 'email', 'uid', 'enumeration'].includes(a.type) && !a.private,
    )
    .map(([n]) => n);
  const numeric = Object.entries(ct.attributes)
    .filter(([, a]) => isScalar(a) && ['integer', 'biginteger', 'float', 'decimal'].includes(a.type) && !a.private)
    .map(([n]) => n);
  const asNumber = q.trim() !== '' && Number.isFinite(Number(q)) ? Number(q) : undefined;
  return (row) => {
    const v = row as Version;
    if (String(v.id).includes(needle) || v.documentId.includes(needle)) return true;
    for (const n of textual) {
      const x = v.data[n];
      if (typeof x === 'string' && x.toLowerCase().includes(needle)) return true;
    }
    if (asNumber !== undefined) for (const n of numeric) if (Number(v.data[n]) === asNumber) return true;
    return false;
  };
}

function publicationPredicate(ctx: ReadContext, ct: ContentType, f: string): Predicate {
  return (row) => {
    const v = row as Version;
    const doc = ctx.index.get(ct.uid, v.documentId);
    if (!doc) return false;
    const slot = doc.slots.get(v.locale ?? NO_LOCALE);
    const anyPublished = [...doc.slots.values()].some((s) => s.published);
    switch (f) {
      case 'never-published':
        return !slot?.published;
      case 'has-published-version':
        return !!slot?.published;
      case 'never-published-document':
        return !anyPublished;
      case 'has-published-version-document':
        return anyPublished;
      case 'modified':
        return !!slot?.published && !!slot.draft && slot.draft.updatedAt !== slot.published.updatedAt;
      case 'unmodified':
        return !!slot?.published && !!slot.draft && slot.draft.updatedAt === slot.published.updatedAt;
      case 'published-without-draft':
        return !!slot?.published && !slot.draft;
      case 'published-with-draft':
        return !!slot?.published && !!slot.draft;
      default:
        return true;
    }
  };
}

/** Runs a list query over the index: pick versions, filter, sort, page, shape. */
export function runFind(ctx: ReadContext, ct: ContentType, query: ReadQuery) {
  return shapePage(ctx, ct, query, findNow(ctx, ct, query));
}

/** `runFind` without holding the event loop (see `findLater`). */
export async function runFindLater(ctx: ReadContext, ct: ContentType, query: ReadQuery) {
  const found = await findLater(ctx, ct, query);
  await finish(ctx, shapingJobs(ctx, ct, query.selection.populate, false));
  return shapePage(ctx, ct, query, found);
}

/**
 * `runFindLater`'s answer as the JSON bytes of `{ data, meta }` and their digest, the documents' bytes reused
 * (see bodies.ts): `who` names the caller's permissions, which decide the relations populated. Answered at once
 * (not a promise) when the page was quick to find and nothing it shapes waits to be made ready.
 */
export function runFindBody(
  ctx: ReadContext,
  ct: ContentType,
  query: ReadQuery,
  who: string,
): PageBody | Promise<PageBody> {
  const found = findLater(ctx, ct, query);
  if (found instanceof Promise) return found.then((f) => bodyOf(ctx, ct, query, who, f));
  return bodyOf(ctx, ct, query, who, found);
}

function bodyOf(ctx: ReadContext, ct: ContentType, query: ReadQuery, who: string, { page, meta }: FoundPage) {
  const jobs = shapingJobs(ctx, ct, query.selection.populate, false);
  const body = () =>
    pageBody(ctx, ct, page, meta, query.selection, `${who}|${query.status}|${ct.uid}|${query.selectionKey}`);
  // A job done and failed is waited for too: `finish` rejects with its failure.
  if (jobs.every((j) => j.done && j.failed === undefined)) return body();
  return finish(ctx, jobs).then(body);
}

function shapePage(ctx: ReadContext, ct: ContentType, query: ReadQuery, { page, meta }: FoundPage) {
  return {
    data: page.map((v) => shapeDocument(ctx, ct, v, query.selection)),
    meta: { pagination: meta },
  };
}

/** Shapes one version for a single-document answer, or undefined when a `filters` parameter excludes it. */
export function shapeOne(ctx: ReadContext, ct: ContentType, v: Version | undefined, query: ReadQuery) {
  if (!v) return undefined;
  if (query.filter && !query.filter(v)) return undefined;
  return shapeDocument(ctx, ct, v, query.selection);
}
