import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { OutsideContentError, folderInside } from '../store/content-bounds.js';
import { readSmallFile } from '../store/read-file.js';
import { join } from 'node:path';
import { FILE_OBJECT_KEYS } from '../documents/media.js';
import type { FileRecord, FocalPoint, FormatInfo, LoadProblem, PreparedFile } from './file-record.js';
import { now } from '../documents/model.js';
import { bytesToKbytes } from './naming.js';

const FORMAT_KEYS = ['name', 'hash', 'ext', 'mime', 'path', 'width', 'height', 'size', 'sizeInBytes', 'url'] as const;

const HASH = /^[A-Za-z0-9_-]{1,200}$/;
const EXT = /^(\.[A-Za-z0-9]{1,16})?$/;
const MIME = /^[\w.+-]+\/[\w.+-]+$/;
export const DOCUMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A name `GET /uploads/<name>` may serve: one path segment, no dot-only names. */
export const SERVED_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,250}$/;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export function formatsOf(f: PreparedFile, hash: string): Record<string, FormatInfo> | null {
  if (!f.formats?.length) return null;
  const out: Record<string, FormatInfo> = {};
  for (const fmt of f.formats) {
    const fhash = `${fmt.key}_${hash}`;
    out[fmt.key] = {
      name: `${fmt.key}_${f.name}`,
      hash: fhash,
      ext: f.ext,
      mime: f.mime,
      path: null,
      width: fmt.width,
      height: fmt.height,
      size: bytesToKbytes(fmt.sizeInBytes),
      sizeInBytes: fmt.sizeInBytes,
      url: `/uploads/${fhash}${f.ext}`,
    };
  }
  return out;
}

/** The record of a file stored for the first time, under `hash`, with the id and documentId it was given. */
export function newRecord(f: PreparedFile, hash: string, id: number, documentId: string): FileRecord {
  const t = now();
  return {
    id,
    documentId,
    name: f.name,
    alternativeText: f.alternativeText,
    caption: f.caption,
    focalPoint: f.focalPoint,
    width: f.width,
    height: f.height,
    formats: formatsOf(f, hash),
    hash,
    ext: f.ext,
    mime: f.mime,
    size: bytesToKbytes(f.sizeInBytes),
    url: `/uploads/${hash}${f.ext}`,
    previewUrl: null,
    provider: 'local',
    provider_metadata: null,
    createdAt: f.createdAt ?? t,
    updatedAt: f.updatedAt ?? t,
    publishedAt: f.publishedAt ?? t,
  };
}

/** The file names a record's binaries are stored under (original and formats). */
export function storedNames(record: FileRecord): string[] {
  if (record.provider !== 'local') return [];
  return [`${record.hash}${record.ext}`, ...Object.values(record.formats ?? {}).map((f) => `${f.hash}${f.ext}`)];
}

/** A record as written to disk: file-object keys in order, 2-space indent, trailing newline. */
export function serializeRecord(record: FileRecord): string {
  const out: Record<string, unknown> = {};
  for (const k of FILE_OBJECT_KEYS) {
    if (k === 'formats' && record.formats) {
      const formats: Record<string, unknown> = {};
      for (const [key, f] of Object.entries(record.formats)) {
        const o: Record<string, unknown> = {};
        for (const fk of FORMAT_KEYS) o[fk] = f[fk] ?? null;
        formats[key] = o;
      }
      out.formats = formats;
    } else {
      out[k] = record[k] ?? null;
    }
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** Checks a record read from disk (it may come from any git commit): names must be safe to serve. */
export function decodeRecord(raw: unknown, documentId: string): FileRecord {
  if (!isObject(raw)) throw new Error('an upload record must be a JSON object');
  if (!DOCUMENT_ID.test(documentId) || raw.documentId !== documentId)
    throw new Error(`"documentId" must be "${documentId}", the file's name`);
  const str = (k: string, re?: RegExp): string => {
    const v = raw[k];
    if (typeof v !== 'string' || (re && !re.test(v))) throw new Error(`"${k}" is missing or invalid`);
    return v;
  };
  const optStr = (k: string): string | null => {
    const v = raw[k];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') throw new Error(`"${k}" must be a string or null`);
    return v;
  };
  const optInt = (k: string, o: Record<string, unknown> = raw): number | null => {
    const v = o[k];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
      throw new Error(`"${k}" must be a whole number or null`);
    return v;
  };
  const provider = raw.provider === undefined ? 'local' : str('provider');
  const hash = str('hash', HASH);
  const ext = raw.ext === undefined || raw.ext === null ? '' : str('ext', EXT);
  const url = str('url');
  if (provider === 'local' && url !== `/uploads/${hash}${ext}`)
    throw new Error(`"url" must be "/uploads/${hash}${ext}" (from "hash" and "ext")`);
  let formats: Record<string, FormatInfo> | null = null;
  if (raw.formats !== undefined && raw.formats !== null) {
    if (!isObject(raw.formats)) throw new Error('"formats" must be an object or null');
    formats = {};
    for (const [key, f] of Object.entries(raw.formats)) {
      if (
        !isObject(f) ||
        typeof f.hash !== 'string' ||
        !HASH.test(f.hash) ||
        typeof f.ext !== 'string' ||
        !EXT.test(f.ext)
      ) {
        throw new Error(`"formats.${key}" needs a valid "hash" and "ext"`);
      }
      const furl = `/uploads/${f.hash}${f.ext}`;
      if (provider === 'local' && f.url !== furl) throw new Error(`"formats.${key}.url" must be "${furl}"`);
      formats[key] = {
        name: typeof f.name === 'string' ? f.name : `${key}_${String(raw.name)}`,
        hash: f.hash,
        ext: f.ext,
        mime: typeof f.mime === 'string' ? f.mime : String(raw.mime),
        path: null,
        width: optInt('width', f),
        height: optInt('height', f),
        size: typeof f.size === 'number' ? f.size : 0,
        sizeInBytes: typeof f.sizeInBytes === 'number' ? f.sizeInBytes : 0,
        url: typeof f.url === 'string' ? f.url : furl,
      };
    }
  }
  let focalPoint: FocalPoint | null = null;
  if (raw.focalPoint !== undefined && raw.focalPoint !== null) {
    const fp = raw.focalPoint;
    if (!isObject(fp) || typeof fp.x !== 'number' || typeof fp.y !== 'number')
      throw new Error('"focalPoint" must be { "x": number, "y": number } or null');
    focalPoint = { x: fp.x, y: fp.y };
  }
  const id = raw.id;
  const createdAt = str('createdAt');
  return {
    id: typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : 0,
    documentId,
    name: str('name'),
    alternativeText: optStr('alternativeText'),
    caption: optStr('caption'),
    focalPoint,
    width: optInt('width'),
    height: optInt('height'),
    formats,
    hash,
    ext,
    mime: str('mime', MIME),
    size: typeof raw.size === 'number' ? raw.size : 0,
    url,
    previewUrl: optStr('previewUrl'),
    provider,
    provider_metadata: raw.provider_metadata ?? null,
    createdAt,
    updatedAt: optStr('updatedAt') ?? createdAt,
    publishedAt: optStr('publishedAt') ?? createdAt,
  };
}

/** A short digest of a record file's text: what `texts` keeps of each. */
export const digestOf = (text: string) => createHash('sha256').update(text).digest('base64');

/**
 * Reads every record file of a folder; broken ones are reported and skipped. No folder: no records. A folder or
 * record that a symbolic link leads out of `contentDir` to is reported, not read (see store/content-bounds.ts).
 */
export function readRecordFiles(
  recordsDir: string,
  contentDir: string,
): {
  records: FileRecord[];
  texts: Map<string, string>;
  problems: LoadProblem[];
} {
  const out = { records: [] as FileRecord[], texts: new Map<string, string>(), problems: [] as LoadProblem[] };
  if (!folderInside(contentDir, recordsDir)) {
    out.problems.push({ file: recordsDir, message: new OutsideContentError(recordsDir).message });
    return out;
  }
  let names: string[];
  try {
    names = readdirSync(recordsDir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw err;
  }
  for (const name of names) {
    const file = join(recordsDir, name);
    try {
      const text = readSmallFile(file, contentDir);
      const record = decodeRecord(JSON.parse(text), name.slice(0, -'.json'.length));
      out.records.push(record);
      out.texts.set(record.documentId, digestOf(text));
    } catch (err) {
      out.problems.push({ file, message: (err as Error).message });
    }
  }
  return out;
}
