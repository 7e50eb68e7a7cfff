import { expect } from 'vitest';
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

/** A valid RGB PNG of one colour, built from bytes (no image library needed). */
export function png(width: number, height: number, rgb: [number, number, number] = [200, 30, 30]): Buffer {
  const row = Buffer.alloc(width * 3 + 1);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The 4x4 red PNG of the conformance recordings. */
export const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg==',
  'base64',
);

/** A 300x200 baseline JPEG (solid blue). */
export const BLUE_JPEG = Buffer.from(
  '/9j/2wBDABQODxIPDRQSEBIXFRQYHjIhHhwcHj0sLiQySUBMS0dARkVQWnNiUFVtVkVGZIhlbXd7gYKBTmCNl4x9lnN+gXz/2wBDARUX' +
    'Fx4aHjshITt8U0ZTfHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHz/wAARCADIASwDASIAAhEB' +
    'AxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFgEBAQEAAAAAAAAAAAAAAAAAAAMG/8QAFBEB' +
    'AAAAAAAAAAAAAAAAAAAAAP/aAAwDAQACEQMRAD8AngGhQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
    'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
    'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
    'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
    'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
    'AAAAAAAAAAAAAAAAAf/Z',
  'base64',
);

/** A minimal PDF document. */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n' +
    '2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

export const SVG = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>\n',
);

/** The start of a Linux x86-64 ELF executable. */
export const ELF = Buffer.concat([
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]),
  Buffer.alloc(8),
  Buffer.from([2, 0, 0x3e, 0, 1, 0, 0, 0]),
  Buffer.alloc(200),
]);

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every file (not folder) under `dir`, relative to it, sorted. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      // A file removed since the folder was read (a server's temp file) is not there any more.
      const stat = statSync(p, { throwIfNoEntry: false });
      if (stat?.isDirectory()) walk(p);
      else if (stat) out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

export interface UploadPart {
  field?: string;
  name: string;
  type?: string;
  data: Buffer;
}

/** A multipart body as FormData: files (field `files` unless given) and text fields (objects JSON-encoded). */
export function form(files: UploadPart[], fields: Record<string, unknown | unknown[]> = {}): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    for (const item of Array.isArray(v) ? v : [v]) fd.append(k, typeof item === 'string' ? item : JSON.stringify(item));
  }
  for (const f of files)
    fd.append(
      f.field ?? 'files',
      new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }),
      f.name,
    );
  return fd;
}

/** Uploads one file with the server's full-access token; its status must be 201. The stored file's record. */
export async function uploadOne(
  server: { url: string; auth: Record<string, string> },
  file: UploadPart,
): Promise<{ ext: string; mime: string; url: string }> {
  const res = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form([file]), headers: server.auth });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body[0];
}
