import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import { applicationError, validationError } from '../errors.js';

/**
 * Strapi's `nameToSlug(name, { separator: '_', lowercase: false })`: letters stripped of accents, words
 * split at camelCase and non-alphanumerics, joined with `_`, case kept. The result only ever holds
 * `[A-Za-z0-9_]`, so a client-supplied name can never reach a file-system path as such.
 */
export function slugifyName(name: string): string {
  let s = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  s = s.replace(/ß/g, 'ss').replace(/&/g, ' and ');
  s = s
    .replace(/(?<=[A-Z]{2})(?=\d)/g, ' ')
    .replace(/(?<=[a-z\d])(?=[A-Z]{2})/g, ' ')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/(?<=[A-Z])(?=[A-Z][a-rt-z\d])/g, ' ');
  // Runs of separators become one `_`, so one at each end is all there is to trim.
  s = s.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '');
  // Keep stored names well under file-system limits.
  s = s.slice(0, 100).replace(/_$/, '');
  return s || 'file';
}

/** The slug a file's hash starts with: the used name without the uploaded file's extension (as Strapi does). */
export function hashBase(usedName: string, uploadedFilename: string): string {
  const ext = extname(uploadedFilename);
  return slugifyName(ext && usedName.endsWith(ext) ? basename(usedName, ext) : usedName);
}

/**
 * Content-hash naming: `<slug>_<10 hex of sha256(content)>`. When that name is taken by another file
 * (the same bytes uploaded under the same name), the digest is re-hashed with a counter until it is free.
 */
export function contentHashName(slug: string, sha256Hex: string, taken: (hash: string) => boolean): string {
  let digest = sha256Hex;
  for (let n = 1; ; n++) {
    const hash = `${slug}_${digest.slice(0, 10)}`;
    if (!taken(hash)) return hash;
    digest = createHash('sha256').update(`${sha256Hex}:${n}`).digest('hex');
  }
}

const MAX_NAME = 255;

/**
 * Checks a display name (the uploaded file's name or `fileInfo.name`). It is metadata only, never a path;
 * still, path separators and control characters are refused as Strapi refuses reserved characters.
 */
export function checkDisplayName(name: string): string {
  const n = name.normalize('NFC');
  if (n.length > MAX_NAME) throw validationError(`name must be at most ${MAX_NAME} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f/\\]/.test(n)) throw applicationError('File name contains invalid characters');
  return n;
}

/** Strapi's `bytesToKbytes`: kilobytes with 2 decimals. */
export const bytesToKbytes = (bytes: number) => Math.round((bytes / 1000) * 100) / 100;
