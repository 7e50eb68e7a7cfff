/**
 * What the document layer needs from the media library (the upload plugin implements it): resolving the
 * references a write body uses (numeric id or documentId) and the file objects that populate returns.
 */
export interface MediaFile {
  id: number;
  documentId: string;
  mime: string;
  [key: string]: unknown;
}

/** Key order of a file object, on disk and on the wire. */
export const FILE_OBJECT_KEYS = [
  'id',
  'documentId',
  'name',
  'alternativeText',
  'caption',
  'focalPoint',
  'width',
  'height',
  'formats',
  'hash',
  'ext',
  'mime',
  'size',
  'url',
  'previewUrl',
  'provider',
  'provider_metadata',
  'createdAt',
  'updatedAt',
  'publishedAt',
] as const;

/** The keys of a file object that hold objects: they can be selected, not filtered or sorted on. */
const OBJECT_KEYS: ReadonlySet<string> = new Set(['focalPoint', 'formats', 'provider_metadata']);

/** The file keys a query may name through a media field: in its filters, sorts and populate `fields`. */
export const FILE_FILTER_KEYS: readonly string[] = FILE_OBJECT_KEYS.filter((k) => !OBJECT_KEYS.has(k));

/**
 * A file as Strapi answers it, in its key order, missing keys as null; with `fields`, only those (and `id`,
 * `documentId`).
 */
export function fileObject(f: Record<string, unknown>, fields?: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const want = fields ? new Set(['id', 'documentId', ...fields]) : undefined;
  for (const k of FILE_OBJECT_KEYS) if (!want || want.has(k)) out[k] = f[k] ?? null;
  return out;
}

export interface MediaLibrary {
  /** A file by numeric id or documentId, or undefined when there is none. */
  resolve(ref: string | number): MediaFile | undefined;
  /** Runs `fn` while no write of the library is under way, in this process or another; writes wait meanwhile. */
  alone?<T>(fn: () => Promise<T>): Promise<T>;
}

/** Strapi's media categories: a file's mime type decides which one it is in. */
export function mediaCategory(mime: string): 'images' | 'videos' | 'audios' | 'files' {
  if (mime.startsWith('image/')) return 'images';
  if (mime.startsWith('video/')) return 'videos';
  if (mime.startsWith('audio/')) return 'audios';
  return 'files';
}

/**
 * Why a media field that allows `allowedTypes` refuses a file of type `mime` ("only accepts images: …"),
 * or undefined when it takes it (no list, an empty one, or the file's category in it).
 */
export function refusedMediaType(allowedTypes: string[] | undefined, mime: string): string | undefined {
  if (!allowedTypes?.length) return undefined;
  const category = mediaCategory(mime);
  if (allowedTypes.includes(category)) return undefined;
  return `only accepts ${allowedTypes.join(', ')}: this file is ${mime} (${category})`;
}
