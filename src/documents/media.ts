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
