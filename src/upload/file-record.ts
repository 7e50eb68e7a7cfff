import type { MediaFile } from '../documents/media.js';

/** One resized version of an image, as Strapi stores it inside `formats`. */
export interface FormatInfo {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  path: null;
  width: number | null;
  height: number | null;
  size: number;
  sizeInBytes: number;
  url: string;
}

export interface FocalPoint {
  x: number;
  y: number;
}

/** An upload file: Strapi's file object (without `isUrlSigned`, which only the upload routes add). */
export interface FileRecord extends MediaFile {
  id: number;
  documentId: string;
  name: string;
  alternativeText: string | null;
  caption: string | null;
  focalPoint: FocalPoint | null;
  width: number | null;
  height: number | null;
  formats: Record<string, FormatInfo> | null;
  hash: string;
  ext: string;
  mime: string;
  size: number;
  url: string;
  previewUrl: string | null;
  provider: string;
  provider_metadata: unknown;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
}

/** A file ready to be stored: its content in temp files, its metadata checked. */
export interface PreparedFile {
  tmpPath: string;
  sha256: string;
  sizeInBytes: number;
  /** The `[A-Za-z0-9_]` slug the hash starts with. */
  slug: string;
  name: string;
  ext: string;
  mime: string;
  width: number | null;
  height: number | null;
  alternativeText: string | null;
  caption: string | null;
  focalPoint: FocalPoint | null;
  formats: Array<{ key: string; tmpPath: string; width: number; height: number; sizeInBytes: number }> | null;
  /** What to keep of a file imported from another library: its documentId (when free) and timestamps. */
  documentId?: string;
  createdAt?: string;
  updatedAt?: string;
  publishedAt?: string;
}

export type MediaEvent = { event: 'media.create' | 'media.update' | 'media.delete'; media: FileRecord };

/** What reading a record file again did: nothing, a change of the library, or a problem (the last good kept). */
export type RecordReload = 'unchanged' | 'created' | 'updated' | 'deleted' | { problem: string };

export interface LoadProblem {
  file: string;
  message: string;
}
