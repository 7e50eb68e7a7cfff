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

export interface MediaLibrary {
  /** A file by numeric id or documentId, or undefined when there is none. */
  resolve(ref: string | number): MediaFile | undefined;
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
