import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { FolioError, storageError, validationError } from '../errors.js';
import { fileTooBig, removeTemps, spoolToTemp, type IncomingFile } from './spool.js';

export interface MultipartBody {
  /** Text fields by name, in order (a repeated field, such as `fileInfo`, has several values). */
  fields: Map<string, string[]>;
  /** The parts of the `files` field, in order, already on disk as temp files. */
  files: IncomingFile[];
}

export interface MultipartLimits {
  sizeLimit: number;
  maxFiles: number;
}

/** Strapi's body parser limits for the non-file part of a multipart body (formidable's defaults). */
const MAX_FIELDS = 1000;
const MAX_FIELD_BYTES = 20 * 1024 * 1024;
const MAX_FIELD_SIZE = 1024 * 1024;

const tooLarge = (message = 'request entity too large') => new FolioError(413, 'PayloadTooLargeError', message, null);

export const isMultipart = (req: IncomingMessage) =>
  String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase() === 'multipart/form-data';

/**
 * Reads a `multipart/form-data` request with busboy, streaming each `files` part into a temp file in
 * `tmpDir` (hashed on the way). Limits: `sizeLimit` bytes per file (413 `FileTooBig`), `maxFiles` files,
 * 1000 fields and 20 MB of field data. On any failure every temp file written is removed before the
 * error is thrown, so a refused upload leaves nothing behind. The rest of an over-limit body is read and
 * discarded so the client gets its answer, up to a hard cap past which reading stops.
 */
export function parseMultipart(req: IncomingMessage, tmpDir: string, limits: MultipartLimits): Promise<MultipartBody> {
  const hardCap = limits.sizeLimit * limits.maxFiles + MAX_FIELD_BYTES + 1024 * 1024;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > hardCap) return Promise.reject(tooLarge());

  return new Promise<MultipartBody>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        preservePath: false,
        defParamCharset: 'utf8',
        limits: {
          // Busboy cuts a file that reaches its limit: one byte more, so a file of exactly sizeLimit bytes passes.
          fileSize: limits.sizeLimit + 1,
          files: limits.maxFiles,
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_SIZE,
          parts: MAX_FIELDS + limits.maxFiles,
          headerPairs: 2000,
        },
      });
    } catch (err) {
      reject(validationError(`Malformed multipart body: ${(err as Error).message}`));
      return;
    }

    const fields = new Map<string, string[]>();
    const slots: Array<IncomingFile | undefined> = [];
    const written: string[] = [];
    const pending: Array<Promise<void>> = [];
    let failure: FolioError | undefined;
    let fieldBytes = 0;
    let received = 0;
    let finished = false;
    const fail = (e: FolioError) => {
      failure ??= e;
    };

    const finish = async () => {
      if (finished) return;
      finished = true;
      req.off('data', count);
      await Promise.allSettled(pending);
      if (failure) {
        await removeTemps(written);
        reject(failure);
        return;
      }
      resolve({ fields, files: slots.filter((f): f is IncomingFile => f !== undefined) });
    };

    // Stops parsing: busboy destroys the file stream in progress, so its spool fails and cleans up.
    const stop = () => {
      req.unpipe(bb);
      bb.destroy();
      void finish();
    };

    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > hardCap && !finished) {
        fail(tooLarge());
        stop();
      }
    };
    req.on('data', count);

    bb.on('file', (name, stream, info) => {
      // Busboy fails a file stream that is cut short (a truncated body) at once, before its spool listens.
      stream.on('error', (err: Error) =>
        fail(storageError(err) ?? validationError(`Malformed multipart body: ${err.message}`)),
      );
      if (failure || name !== 'files') {
        stream.resume();
        return;
      }
      const index = slots.length;
      slots.push(undefined);
      let truncated = false;
      stream.on('limit', () => {
        truncated = true;
        fail(fileTooBig());
      });
      pending.push(
        spoolToTemp(stream, tmpDir).then(
          (r) => {
            written.push(r.tmpPath);
            // A browser sends an empty part for a file input left empty: that is no file.
            if (truncated || (info.filename === '' && r.size === 0)) {
              void removeTemps([r.tmpPath]);
              return;
            }
            slots[index] = {
              ...r,
              filename: info.filename || 'file',
              declaredType: (info.mimeType || '').toLowerCase(),
            };
          },
          (err: unknown) => {
            fail(
              err instanceof FolioError
                ? err
                : (storageError(err) ?? validationError(`The upload could not be read: ${(err as Error).message}`)),
            );
            // Nothing more of this request will be stored: stop reading it rather than wait on a stream
            // that no longer drains.
            if (!finished) stop();
          },
        ),
      );
    });
    bb.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) {
        fail(tooLarge());
        return;
      }
      fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (fieldBytes > MAX_FIELD_BYTES) {
        fail(tooLarge());
        return;
      }
      const list = fields.get(name);
      if (list) list.push(value);
      else fields.set(name, [value]);
    });
    bb.on('filesLimit', () => fail(tooLarge(`Too many files: at most ${limits.maxFiles} per request`)));
    bb.on('fieldsLimit', () => fail(tooLarge()));
    bb.on('partsLimit', () => fail(tooLarge()));
    bb.on('error', (err: Error) => {
      fail(validationError(`Malformed multipart body: ${err.message}`));
      void finish();
    });
    bb.on('close', () => {
      void finish();
    });
    req.on('close', () => {
      if (req.complete || finished) return;
      fail(validationError('The request was aborted before the upload finished'));
      stop();
    });
    req.pipe(bb);
  });
}
