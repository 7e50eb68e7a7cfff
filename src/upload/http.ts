import type { Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { folderInside, realPathInside } from '../store/content-bounds.js';
import { FolioError, invalidKey, notFound, paginationError, validationError } from '../errors.js';
import { sendEmpty, sendJson } from '../http-kit/respond.js';
import { actorOf } from '../http-kit/actor.js';
import type { RouteHandler, RouteRequest } from '../http-kit/route.js';
import { compileFilters } from '../query/filters.js';
import { parseQueryString } from '../query/parse-qs.js';
import { mediaScope } from '../query/scope.js';
import { compareValues, compileSort, parseSort } from '../query/sort.js';
import { FILE_OBJECT_KEYS, fileObject as shapeFile } from '../documents/media.js';
import type { FileRecord, LocalMediaLibrary } from './library.js';
import { contentTypeHeader } from './mime.js';
import { isMultipart, parseMultipart, type MultipartBody } from './multipart.js';
import { UploadService, localLibrary, parseFileInfo, type FileInfo, type LinkTarget } from './service.js';
import { removeTemps } from './spool.js';

const forbidden = () => new FolioError(403, 'ForbiddenError', 'Forbidden', {});
const fileNotFound = () => notFound('file.notFound');

const FIND_PARAMS = new Set(['filters', 'sort', 'fields', 'populate', 'pagination', 'start', 'limit', '_q']);
const PAGE_PARAMS = new Set([...FIND_PARAMS, 'page', 'pageSize']);
const UPLOAD_PARAMS = new Set(['id']);

/** The media library of a project that keeps its files on disk (a 404 otherwise). */
function libraryOf(req: RouteRequest): LocalMediaLibrary {
  const lib = localLibrary(req.project);
  if (!lib) throw notFound();
  return lib;
}

/**
 * The handlers of the upload plugin's routes (routes.ts), with Strapi's shapes (unwrapped except `/files/page`):
 * `POST /api/upload` (upload, upload-and-link, `?id=` update or replace), `GET /api/upload/files[/page|/:id]`,
 * `DELETE /api/upload/files/:id`; and the stored files themselves at `GET /uploads/<name>`.
 */
export const uploadHandlers: Record<
  'upload' | 'find' | 'findPage' | 'findOne' | 'destroy' | 'storedFile',
  RouteHandler
> = {
  upload: (req) => postUpload(req, new UploadService(libraryOf(req), req.project.documents)),
  find: (req) => findFiles(req, libraryOf(req)),
  findPage: (req) => findPage(req, libraryOf(req)),
  findOne: (req) => findOne(req, libraryOf(req), req.params.id),
  destroy: (req) => destroy(req, new UploadService(libraryOf(req), req.project.documents), req.params.id),
  storedFile: (req) => serveStoredFile(req, libraryOf(req)),
};

function query(req: RouteRequest, allowed: Set<string>): Record<string, unknown> {
  const q = parseQueryString(req.rawQuery);
  if (req.project.config.rest.strictParams) {
    for (const key of Object.keys(q)) {
      if (!allowed.has(key))
        throw validationError(`Invalid key ${key}`, { key, path: null, source: 'query', param: key });
    }
  }
  return q;
}

/** A file object as the upload routes answer it: the selected keys, then `isUrlSigned: false`. */
function fileObject(record: FileRecord, fields?: string[]): Record<string, unknown> {
  return { ...shapeFile(record, fields), isUrlSigned: false };
}

function parseFileFields(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  let list: string[];
  if (typeof raw === 'string') list = raw.split(',');
  else if (Array.isArray(raw) && raw.every((x) => typeof x === 'string'))
    list = (raw as string[]).flatMap((s) => s.split(','));
  else throw validationError('Invalid fields parameter. Expected a string or an array of strings');
  list = list.map((s) => s.trim()).filter(Boolean);
  if (list.includes('*')) return undefined;
  for (const f of list) {
    if (!(FILE_OBJECT_KEYS as readonly string[]).includes(f))
      throw invalidKey(f, { path: null, source: 'query', param: 'fields' });
  }
  return list;
}

/** Files have nothing Folio populates (`related` and `folder` are not kept): any populate key is a 400. */
function checkPopulate(raw: unknown) {
  if (raw === undefined || raw === null || raw === '' || raw === 'false' || raw === false) return;
  let key: string | undefined;
  if (typeof raw === 'string') key = raw.split(',')[0].trim();
  else if (Array.isArray(raw)) key = String(raw[0]);
  else if (typeof raw === 'object') key = Object.keys(raw as object)[0];
  if (key) throw invalidKey(key, { path: null, source: 'query', param: 'populate' });
}

/** Filters, `_q` and sort over the library (by id when no sort is given). */
function select(lib: LocalMediaLibrary, q: Record<string, unknown>): FileRecord[] {
  const scope = mediaScope();
  const filter = compileFilters(scope, q.filters);
  const sort = compileSort(scope, parseSort(q.sort));
  parseFileFields(q.fields);
  checkPopulate(q.populate);
  let rows = lib.list().filter((r) => filter(r));
  if (q._q !== undefined && q._q !== '') {
    const needle = String(q._q).toLowerCase();
    rows = rows.filter((r) =>
      [r.name, r.alternativeText, r.caption].some((v) => typeof v === 'string' && v.toLowerCase().includes(needle)),
    );
  }
  // The list is in id order and the sort is stable, so ties stay in id order.
  if (sort) rows = sort([...rows].sort((a, b) => compareValues(a.id, b.id)));
  return rows;
}

const toInt = (v: unknown) =>
  typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : typeof v === 'number' && Number.isInteger(v) ? v : NaN;

async function findFiles(req: RouteRequest, lib: LocalMediaLibrary) {
  const q = query(req, FIND_PARAMS);
  let rows = select(lib, q);
  const fields = parseFileFields(q.fields);
  // As Strapi: `pagination[...]` is ignored on this route; root `start` / `limit` apply (limit -1: all).
  if (q.start !== undefined || q.limit !== undefined) {
    const start = q.start === undefined ? 0 : toInt(q.start);
    if (!Number.isInteger(start) || start < 0)
      throw paginationError(`Invalid start parameter. Expected an integer >= 0, received: ${String(q.start)}`);
    const limit = q.limit === undefined ? -1 : toInt(q.limit);
    if (!Number.isInteger(limit) || limit < -1)
      throw paginationError(`Invalid limit parameter. Expected a positive integer or -1, received: ${String(q.limit)}`);
    rows = rows.slice(start, limit === -1 ? undefined : start + limit);
  }
  return sendJson(
    req.event,
    200,
    rows.map((r) => fileObject(r, fields)),
  );
}

async function findPage(req: RouteRequest, lib: LocalMediaLibrary) {
  const q = query(req, PAGE_PARAMS);
  const rows = select(lib, q);
  const fields = parseFileFields(q.fields);
  const p = (q.pagination && typeof q.pagination === 'object' ? q.pagination : {}) as Record<string, unknown>;
  const rawPage = q.page ?? p.page;
  const rawSize = q.pageSize ?? p.pageSize;
  const page = rawPage === undefined ? 1 : toInt(rawPage);
  if (!Number.isInteger(page) || page < 1) throw paginationError('Invalid page parameter. Expected an integer > 0');
  const pageSize = rawSize === undefined ? 10 : toInt(rawSize);
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw paginationError('Invalid pageSize parameter. Expected an integer > 0');
  const total = rows.length;
  const data = rows.slice((page - 1) * pageSize, page * pageSize).map((r) => fileObject(r, fields));
  return sendJson(req.event, 200, {
    data,
    meta: { pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } },
  });
}

/** Upload routes address files by numeric id only (a documentId is a 404, as in Strapi). */
function recordOf(lib: LocalMediaLibrary, segment: string): FileRecord {
  if (!/^\d+$/.test(segment)) throw fileNotFound();
  const record = lib.byId(Number(segment));
  if (!record) throw fileNotFound();
  return record;
}

async function findOne(req: RouteRequest, lib: LocalMediaLibrary, segment: string) {
  const q = query(req, FIND_PARAMS);
  const fields = parseFileFields(q.fields);
  checkPopulate(q.populate);
  return sendJson(req.event, 200, fileObject(recordOf(lib, segment), fields));
}

async function destroy(req: RouteRequest, service: UploadService, segment: string) {
  query(req, FIND_PARAMS);
  const record = recordOf(service.library, segment);
  const removed = await service.remove(record.id, actorOf(await req.principal()));
  if (!removed) throw fileNotFound();
  return sendJson(req.event, 200, fileObject(removed.record));
}

async function postUpload(req: RouteRequest, service: UploadService) {
  const q = query(req, UPLOAD_PARAMS);
  let id: number | undefined;
  if (q.id !== undefined) {
    if (typeof q.id !== 'string' || q.id === '')
      throw validationError('File id is required and must be a single value');
    id = /^\d+$/.test(q.id) ? Number(q.id) : -1;
  }
  const nodeReq = req.event.node.req;
  if (!isMultipart(nodeReq)) {
    // A JSON body carries no files: it can only update a file's info (`?id=`), as in Strapi.
    if (id === undefined) throw validationError('Files are empty');
    const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
    const info = parseFileInfo(body.fileInfo, 'fileInfo');
    return sendJson(req.event, 200, fileObject(await service.updateInfo(id, info, actorOf(await req.principal()))));
  }
  let parsed: MultipartBody;
  // Files are spooled into uploads/ itself: never where a link out of content/ leads (store/content-bounds.ts).
  if (!folderInside(service.library.contentDir, service.library.uploadsDir))
    throw new FolioError(500, 'ApplicationError', 'content/uploads leads out of content/ (a symbolic link)', {});
  try {
    parsed = await parseMultipart(nodeReq, service.library.uploadsDir, service.library.config);
  } catch (err) {
    if (!nodeReq.complete) {
      // The rest of the body will not be read: close the connection after the answer.
      req.event.node.res.setHeader('connection', 'close');
      nodeReq.resume();
    }
    throw err;
  }
  const { fields, files } = parsed;
  const actor = actorOf(await req.principal());
  try {
    const infoValues = fields.get('fileInfo') ?? [];
    if (id !== undefined) {
      if (files.length > 1) throw validationError('Cannot replace a file with multiple ones');
      const info = parseFileInfo(infoValues[0], 'fileInfo');
      const result = files.length
        ? await service.replace(id, files[0], info, actor)
        : await service.updateInfo(id, info, actor);
      return sendJson(req.event, 200, fileObject(result));
    }
    if (!files.length) throw validationError('Files are empty');
    const infos: FileInfo[] =
      files.length > 1
        ? files.map((_, i) => parseFileInfo(infoValues[i], `fileInfo[${i}]`))
        : [parseFileInfo(infoValues[0], 'fileInfo')];
    const link = await linkOf(req, service, fields);
    const stored = await service.upload(files, infos, link, undefined, actor);
    return sendJson(
      req.event,
      201,
      stored.map((r) => fileObject(r)),
    );
  } finally {
    await removeTemps(files.map((f) => f.tmpPath));
  }
}

/** `ref` + `refId` + `field`: all three or none. Linking changes the entry, so it also needs `update` on its type. */
async function linkOf(
  req: RouteRequest,
  service: UploadService,
  fields: Map<string, string[]>,
): Promise<LinkTarget | undefined> {
  const ref = fields.get('ref')?.[0];
  const refId = fields.get('refId')?.[0];
  const field = fields.get('field')?.[0];
  if (ref === undefined && refId === undefined && field === undefined) return undefined;
  if (!ref || !refId || !field)
    throw validationError('ref, refId and field go together: give all three to attach the files to an entry');
  const link = service.linkTarget(ref, refId, field);
  if (!req.access.can(await req.principal(), `${link.ct.uid}.update`)) throw forbidden();
  return link;
}

// ------------------------------------------------------------------ GET /uploads/<name>

/** Stored files: correct Content-Type, ETag / Last-Modified with 304s, single byte ranges (206 / 416). */
async function serveStoredFile(req: RouteRequest, lib: LocalMediaLibrary) {
  const { event } = req;
  let name: string;
  try {
    name = decodeURIComponent(req.params._);
  } catch {
    throw notFound();
  }
  const hit = lib.servedFile(name);
  if (!hit) throw notFound();
  const { file, st } = await openStored(lib, hit.path);
  let streaming = false;
  try {
    const mime = hit.format ? (hit.record.formats?.[hit.format]?.mime ?? hit.record.mime) : hit.record.mime;
    const etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
    const mtime = Math.floor(st.mtimeMs / 1000) * 1000;
    const res = event.node.res;
    res.setHeader('etag', etag);
    res.setHeader('last-modified', new Date(mtime).toUTCString());
    res.setHeader('cache-control', 'public, max-age=0');
    res.setHeader('accept-ranges', 'bytes');
    res.setHeader('x-content-type-options', 'nosniff');
    // Uploaded content never runs as a page of this origin, whatever it is.
    res.setHeader(
      'content-security-policy',
      "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox",
    );

    const headers = event.node.req.headers;
    if (notModified(headers['if-none-match'], headers['if-modified-since'], etag, mtime)) return sendEmpty(event, 304);

    res.setHeader('content-type', contentTypeHeader(mime));
    let range: { start: number; end: number } | 'unsatisfiable' | undefined;
    const rangeHeader = headers.range;
    if (typeof rangeHeader === 'string' && ifRangeHolds(headerValue(headers['if-range']), etag, mtime))
      range = parseRange(rangeHeader, st.size);
    if (range === 'unsatisfiable') {
      res.setHeader('content-range', `bytes */${st.size}`);
      res.statusCode = 416;
      res.setHeader('content-length', '0');
      return Buffer.alloc(0);
    }
    if (range) {
      res.statusCode = 206;
      res.setHeader('content-range', `bytes ${range.start}-${range.end}/${st.size}`);
      res.setHeader('content-length', String(range.end - range.start + 1));
    } else {
      res.statusCode = 200;
      res.setHeader('content-length', String(st.size));
    }
    if (req.method === 'HEAD' || st.size === 0) return Buffer.alloc(0);
    streaming = true;
    // The stream closes the file when it ends or is cut.
    return file.createReadStream(range ? { start: range.start, end: range.end } : {});
  } finally {
    if (!streaming) await file.close();
  }
}

/**
 * A stored file opened at its real path, which must lie inside content/: a committed link to
 * ../../.folio/secrets.json (or an uploads/ folder that is a link) serves nothing (store/content-bounds.ts). The
 * answer is read from this descriptor, so what was checked is what is sent.
 */
async function openStored(lib: LocalMediaLibrary, path: string): Promise<{ file: FileHandle; st: Stats }> {
  let file: FileHandle | undefined;
  try {
    file = await open(realPathInside(lib.contentDir, path), 'r');
    const st = await file.stat();
    if (st.isFile()) return { file, st };
  } catch {
    // Gone, unreadable, or a link out of content/: not found, as for a name no record has.
  }
  await file?.close();
  throw notFound();
}

function notModified(
  inm: string | string[] | undefined,
  ims: string | undefined,
  etag: string,
  mtime: number,
): boolean {
  if (inm !== undefined) {
    const list = (Array.isArray(inm) ? inm.join(',') : inm).split(',').map((s) => s.trim().replace(/^W\//, ''));
    return list.includes('*') || list.includes(etag);
  }
  if (ims) {
    const since = Date.parse(ims);
    return Number.isFinite(since) && mtime <= since;
  }
  return false;
}

const headerValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function ifRangeHolds(ifRange: string | undefined, etag: string, mtime: number): boolean {
  if (!ifRange) return true;
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return ifRange === etag;
  const date = Date.parse(ifRange);
  return Number.isFinite(date) && date === mtime;
}

/** One `bytes=` range; several ranges or a malformed header mean the whole file (undefined). */
function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(size - suffix, 0);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return undefined;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}
