import { stat } from 'node:fs/promises';
import { applicationError } from '../errors.js';
import { removeTemps, tempPath } from './spool.js';

/** Image types Strapi makes resized formats of (and that sharp reads and writes). */
const RESIZABLE: Record<string, 'jpeg' | 'png' | 'webp' | 'tiff' | 'gif' | 'avif'> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/tiff': 'tiff',
  'image/gif': 'gif',
  'image/avif': 'avif',
};

export const THUMBNAIL = { width: 245, height: 156 } as const;

/** Width and height of an image file, read from its header with `image-size`; undefined for types it does not know. */
export async function imageDimensions(
  file: string,
  mime: string,
): Promise<{ width: number; height: number } | undefined> {
  try {
    // Loaded on first upload, not at start.
    const { imageSizeFromFile } = await import('image-size/fromFile');
    const size = await imageSizeFromFile(file);
    if (!size.width || !size.height) throw new Error('no dimensions');
    return { width: size.width, height: size.height };
  } catch (err) {
    const unsupported = /unsupported file type/i.test((err as Error).message);
    if (unsupported && !(mime in RESIZABLE)) return undefined;
    throw applicationError('File is not a valid image');
  }
}

// ------------------------------------------------------------------ sharp (optional)

/** The part of sharp's API Folio uses; sharp is an optional dependency, so its types are not imported. */
interface SharpPipeline {
  metadata(): Promise<{ width?: number; height?: number; format?: string }>;
  resize(options: { width: number; height: number; fit: 'inside'; withoutEnlargement?: boolean }): SharpPipeline;
  toFormat(format: string): SharpPipeline;
  toFile(path: string): Promise<{ width: number; height: number; size: number; pageHeight?: number }>;
}
type SharpFactory = (
  input: string,
  options?: { animated?: boolean; limitInputPixels?: number; failOn?: 'none' | 'truncated' | 'error' | 'warning' },
) => SharpPipeline;

let sharpLoading: Promise<SharpFactory | null> | undefined;

/**
 * Loads sharp once per process. When it cannot load (not installed, no binary for this platform, or
 * FOLIO_NO_SHARP=1), formats are not generated (`formats: null`) and one warning says why.
 */
export function loadSharp(warn: (msg: string) => void): Promise<SharpFactory | null> {
  sharpLoading ??= (async () => {
    if (process.env.FOLIO_NO_SHARP === '1') {
      warn('Folio: image formats are off (FOLIO_NO_SHARP=1): uploads get width/height but formats: null.');
      return null;
    }
    try {
      const specifier = 'sharp';
      // A variable specifier keeps sharp optional at compile time; the module's default export is the factory.
      const mod = (await import(specifier)) as { default?: unknown };
      const factory = (mod.default ?? mod) as SharpFactory;
      if (typeof factory !== 'function') throw new Error('unexpected module shape');
      return factory;
    } catch (err) {
      warn(
        `Folio: image formats are off: sharp could not be loaded (${(err as Error).message.split('\n')[0]}). ` +
          'Uploads get width/height but formats: null. Install it with "npm install sharp".',
      );
      return null;
    }
  })();
  return sharpLoading;
}

export interface FormatPlan {
  /** `thumbnail`, or a breakpoint name. */
  key: string;
  tmpPath: string;
  width: number;
  height: number;
  sizeInBytes: number;
}

/**
 * Strapi's resized formats of an image, written as temp files in `tmpDir`: a thumbnail (fit inside
 * 245x156) when the image is larger than that, and each breakpoint (fit inside N x N) smaller than the
 * image's width or height. Returns null when there is nothing to make or sharp is unavailable.
 * Sharp failing to decode the image means it is not a valid image (400).
 */
export async function makeFormats(
  src: string,
  mime: string,
  dims: { width: number; height: number },
  tmpDir: string,
  opts: { breakpoints: Record<string, number>; responsiveDimensions: boolean; warn: (msg: string) => void },
): Promise<FormatPlan[] | null> {
  const format = RESIZABLE[mime];
  if (!format) return null;
  const wanted: Array<{ key: string; width: number; height: number }> = [];
  if (dims.width > THUMBNAIL.width || dims.height > THUMBNAIL.height) wanted.push({ key: 'thumbnail', ...THUMBNAIL });
  if (opts.responsiveDimensions) {
    for (const [key, px] of Object.entries(opts.breakpoints)) {
      if (px < dims.width || px < dims.height) wanted.push({ key, width: px, height: px });
    }
  }
  if (!wanted.length) return null;
  const sharp = await loadSharp(opts.warn);
  if (!sharp) return null;
  const animated = format === 'gif' || format === 'webp';
  const made: FormatPlan[] = [];
  try {
    for (const w of wanted) {
      const out = tempPath(tmpDir, 'format');
      made.push({ key: w.key, tmpPath: out, width: 0, height: 0, sizeInBytes: 0 });
      const info = await sharp(src, { animated, failOn: 'error' })
        .resize({ width: w.width, height: w.height, fit: 'inside' })
        .toFormat(format)
        .toFile(out);
      const last = made[made.length - 1];
      last.width = info.width;
      last.height = info.pageHeight ?? info.height;
      last.sizeInBytes = (await stat(out)).size;
    }
  } catch (err) {
    await removeTemps(made.map((m) => m.tmpPath));
    if ((err as { status?: number }).status) throw err;
    throw applicationError('File is not a valid image');
  }
  return made;
}
