import type { DocumentService } from '../documents/service.js';
import type { Actor } from '../documents/write-record.js';
import { FolioError, applicationError, fieldErrors, notFound, validationError } from '../errors.js';
import type { ServedProject } from '../http-kit/served-project.js';
import type { ContentType, MediaAttribute } from '../schema/types.js';
import { imageDimensions, makeFormats } from './images.js';
import { LocalMediaLibrary, type FileRecord, type FocalPoint, type PreparedFile } from './library.js';
import { detectFileType, isMimeAllowed, mediaCategory, resolveExtension } from './mime.js';
import { checkDisplayName, hashBase } from './naming.js';
import { fileTooBig, removeTemps, type IncomingFile } from './spool.js';

/** `fileInfo` of an upload: what the client may set on a file. `null`/absent keeps the current value on update. */
export interface FileInfo {
  name?: string | null;
  alternativeText?: string | null;
  caption?: string | null;
  focalPoint?: FocalPoint | null;
}

/** Upload-and-link: attach the new files to a media field of one entry version (Strapi's `ref`, `refId`, `field`). */
export interface LinkTarget {
  ct: ContentType;
  versionId: number;
  field: string;
  attr: MediaAttribute;
}

const FILE_INFO_KEYS = ['name', 'alternativeText', 'caption', 'focalPoint'];
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The media library of a project, when it is the local one (projects opened with another library have no
 * upload routes).
 */
export function localLibrary(project: ServedProject): LocalMediaLibrary | undefined {
  const media = project.documents.media;
  return media instanceof LocalMediaLibrary ? media : undefined;
}

/**
 * Parses and checks one `fileInfo` value (a JSON string from a multipart field, or an object from a JSON
 * body), with yup-style errors as Strapi's upload validation answers them.
 */
export function parseFileInfo(raw: unknown, path: string): FileInfo {
  if (raw === undefined || raw === null || raw === '') return {};
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (err) {
      throw validationError(`${path} must be a JSON object: ${(err as Error).message}`);
    }
  }
  if (!isObject(value))
    throw fieldErrors([
      {
        path: path.split('.'),
        message: `${path} must be a \`object\` type, but the final value was: \`${JSON.stringify(value)}\`.`,
      },
    ]);
  const unknown = Object.keys(value).filter((k) => !FILE_INFO_KEYS.includes(k));
  if (unknown.length)
    throw fieldErrors([
      { path: path.split('.'), message: `${path} field has unspecified keys: ${unknown.join(', ')}` },
    ]);
  const out: FileInfo = {};
  for (const k of ['name', 'alternativeText', 'caption'] as const) {
    const v = value[k];
    if (v === undefined) continue;
    if (v !== null && typeof v !== 'string') {
      throw fieldErrors([
        {
          path: [...path.split('.'), k],
          message: `${path}.${k} must be a \`string\` type, but the final value was: \`${JSON.stringify(v)}\`.`,
        },
      ]);
    }
    out[k] = v;
  }
  if (value.focalPoint !== undefined) {
    const fp = value.focalPoint;
    if (fp === null) out.focalPoint = null;
    else {
      const ok = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 100;
      if (!isObject(fp) || !ok(fp.x) || !ok(fp.y) || Object.keys(fp).some((k) => k !== 'x' && k !== 'y')) {
        throw fieldErrors([
          {
            path: [...path.split('.'), 'focalPoint'],
            message: `${path}.focalPoint must be { "x": 0-100, "y": 0-100 }`,
          },
        ]);
      }
      out.focalPoint = { x: fp.x as number, y: fp.y as number };
    }
  }
  if (typeof out.name === 'string' && out.name !== '') out.name = checkDisplayName(out.name);
  return out;
}

/** A file whose detected type the security lists refuse: Strapi drops it and stores the request's others. */
class TypeRefused extends FolioError {}

/**
 * The upload plugin's operations over the local library and the document service: what the HTTP routes
 * and the CLI both call. Files arrive as temp files (see spool.ts); nothing is stored until every file of
 * a request has passed every check, except that files of a refused type are left out (as Strapi does;
 * only when every file is refused is the request refused, with the first file's message).
 */
export class UploadService {
  constructor(
    readonly library: LocalMediaLibrary,
    readonly documents: DocumentService,
  ) {}

  /** Checks `ref`/`refId`/`field` before anything is stored. */
  linkTarget(ref: string, refId: string, field: string): LinkTarget {
    const ct = this.documents.schemas.contentTypes.get(ref);
    if (!ct) throw validationError(`Invalid ref: "${ref}" is not a content-type uid`, { key: 'ref', source: 'body' });
    if (!/^\d+$/.test(refId))
      throw validationError('Invalid refId: it must be the numeric id of an entry', { key: 'refId', source: 'body' });
    const attr = Object.prototype.hasOwnProperty.call(ct.attributes, field) ? ct.attributes[field] : undefined;
    if (!attr || attr.type !== 'media')
      throw validationError(`Invalid field: "${field}" is not a media field of ${ct.uid}`, {
        key: 'field',
        source: 'body',
      });
    const versionId = Number(refId);
    if (!this.documents.index.byId(ct.uid, versionId))
      throw validationError(`No entry of ${ct.uid} has the id ${refId}`, { key: 'refId', source: 'body' });
    return { ct, versionId, field, attr };
  }

  /** Uploads files (and links them when `link` is given). Returns the stored files in request order. */
  async upload(
    files: IncomingFile[],
    infos: FileInfo[],
    link?: LinkTarget,
    keep?: Array<Pick<PreparedFile, 'documentId' | 'createdAt' | 'updatedAt' | 'publishedAt'> | undefined>,
    actor?: Actor,
  ): Promise<FileRecord[]> {
    if (!files.length) throw validationError('Files are empty');
    const prepared: PreparedFile[] = [];
    try {
      let refused: TypeRefused | undefined;
      for (let i = 0; i < files.length; i++) {
        try {
          prepared.push({
            ...(await this.prepare(files[i], infos[i] ?? {}, link?.attr)),
            ...keep?.[i],
          });
        } catch (err) {
          if (!(err instanceof TypeRefused)) throw err;
          refused ??= err;
        }
      }
      if (!prepared.length && refused) throw refused;
      const stored = await this.library.add(prepared, actor);
      if (link) {
        try {
          for (const r of stored) {
            const ok = await this.documents.linkMedia(link.ct.uid, link.versionId, link.field, r.documentId, actor);
            if (!ok)
              throw validationError(`No entry of ${link.ct.uid} has the id ${link.versionId}`, {
                key: 'refId',
                source: 'body',
              });
          }
        } catch (err) {
          for (const r of stored) await this.remove(r.id, actor);
          throw err;
        }
      }
      return stored;
    } finally {
      await removeTemps(prepared.flatMap((p) => [p.tmpPath, ...(p.formats ?? []).map((f) => f.tmpPath)]));
    }
  }

  /** Changes name, alternative text, caption or focal point; `null`/absent values keep the current ones (as Strapi). */
  async updateInfo(id: number, info: FileInfo, actor?: Actor): Promise<FileRecord> {
    const patch: Partial<FileInfo> = {};
    for (const k of FILE_INFO_KEYS as Array<keyof FileInfo>) {
      const v = info[k];
      // As Strapi: null (or absent) keeps the current value; an empty name keeps it too.
      if (v !== undefined && v !== null && !(k === 'name' && v === '')) (patch as Record<string, unknown>)[k] = v;
    }
    const updated = await this.library.updateInfo(
      id,
      patch as Partial<Pick<FileRecord, 'name' | 'alternativeText' | 'caption' | 'focalPoint'>>,
      actor,
    );
    if (!updated) throw notFound('Entity not found');
    return updated;
  }

  /** Replaces a file's content, keeping its id, documentId and URL. */
  async replace(id: number, file: IncomingFile, info: FileInfo, actor?: Actor): Promise<FileRecord> {
    if (!this.library.byId(id)) throw notFound('Entity not found');
    let prepared: PreparedFile | undefined;
    try {
      prepared = await this.prepare(file, info);
      const patch: Partial<Pick<FileRecord, 'name' | 'alternativeText' | 'caption' | 'focalPoint'>> = {
        name: prepared.name,
      };
      if (info.alternativeText != null) patch.alternativeText = info.alternativeText;
      if (info.caption != null) patch.caption = info.caption;
      if (info.focalPoint != null) patch.focalPoint = info.focalPoint;
      const replaced = await this.library.replace(id, prepared, patch, actor);
      if (!replaced) throw notFound('Entity not found');
      return replaced;
    } finally {
      if (prepared) await removeTemps([prepared.tmpPath, ...(prepared.formats ?? []).map((f) => f.tmpPath)]);
    }
  }

  /**
   * Deletes a file (by id or documentId): its record and binaries, then the file is removed from every
   * media field that used it. Returns the deleted file and how many documents were changed.
   */
  async remove(ref: number | string, actor?: Actor): Promise<{ record: FileRecord; detached: number } | undefined> {
    const found = this.library.resolve(ref);
    if (!found) return undefined;
    const record = await this.library.remove(found.id, actor);
    if (!record) return undefined;
    const detached = await this.documents.detachMedia(record.documentId, actor);
    return { record, detached };
  }

  /**
   * Checks one incoming file and makes what storing it needs: type from the content (never from the
   * client), the allow/deny lists, the target field's `allowedTypes`, dimensions and formats of images.
   */
  async prepare(file: IncomingFile, info: FileInfo, attr?: MediaAttribute): Promise<PreparedFile> {
    const cfg = this.library.config;
    if (file.size > cfg.sizeLimit) throw fileTooBig();
    const uploadedName = checkDisplayName(file.filename || 'file');
    const name = info.name ? checkDisplayName(info.name) : uploadedName;
    const detected = await detectFileType(file.tmpPath);
    const { ext, mime } = resolveExtension(uploadedName, detected);
    for (const type of new Set([detected.mime, mime])) {
      if (!isMimeAllowed(type, cfg.security)) {
        throw new TypeRefused(400, 'ValidationError', `File type '${type}' is not allowed`, {
          fileName: uploadedName,
          detectedType: detected.mime,
        });
      }
    }
    // A file sent as an image that is not one is refused, as Strapi refuses it.
    if (file.declaredType.startsWith('image/') && !mime.startsWith('image/'))
      throw applicationError('File is not a valid image');
    if (attr?.allowedTypes?.length && !attr.allowedTypes.includes(mediaCategory(mime))) {
      throw validationError(
        `A ${mediaCategory(mime).replace(/s$/, '')} (${mime}) is not allowed in this field: it accepts ${attr.allowedTypes.join(', ')}`,
        {
          fileName: uploadedName,
          mime,
          allowedTypes: attr.allowedTypes,
        },
      );
    }
    let width: number | null = null;
    let height: number | null = null;
    let formats: PreparedFile['formats'] = null;
    if (mime.startsWith('image/')) {
      const dims = await imageDimensions(file.tmpPath, mime);
      if (dims) {
        ({ width, height } = dims);
        formats = await makeFormats(file.tmpPath, mime, dims, this.library.uploadsDir, {
          breakpoints: cfg.breakpoints,
          responsiveDimensions: cfg.responsiveDimensions,
          warn: this.library.warn,
        });
      }
    }
    return {
      tmpPath: file.tmpPath,
      sha256: file.sha256,
      sizeInBytes: file.size,
      slug: hashBase(name, uploadedName),
      name,
      ext,
      mime,
      width,
      height,
      alternativeText: info.alternativeText ?? null,
      caption: info.caption ?? null,
      focalPoint: info.focalPoint ?? null,
      formats,
    };
  }
}
