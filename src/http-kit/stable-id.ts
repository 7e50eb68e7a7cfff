import { createHash } from 'node:crypto';

/** A documentId-shaped id derived from a name, so records that are not stored keep a stable id. */
export function stableId(name: string): string {
  const digest = createHash('sha256').update(name).digest();
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let out = alphabet[digest[0] % 26];
  for (let i = 1; i < 24; i++) out += alphabet[digest[i] % 36];
  return out;
}
