import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The last numeric id handed out for a kind of record, kept in `.folio/ids/<name>` so that an id freed by a
 * delete is never given again, by this process or another (Strapi's ids are SQL auto-increments). `name` is a
 * content type's pluralName (kebab-case) or a dotted plugin name (`upload.file`), so the two never meet.
 */
export function lastIssuedId(stateDir: string, name: string): number {
  try {
    const n = Number.parseInt(readFileSync(join(stateDir, 'ids', name), 'utf8'), 10);
    return Number.isSafeInteger(n) && n > 0 ? n : 0;
  } catch {
    return 0;
  }
}

export function recordIssuedId(stateDir: string, name: string, id: number): void {
  // Local state: losing it (a crash) at worst lets an id be given twice, which loading renumbers.
  const dir = join(stateDir, 'ids');
  mkdirSync(dir, { recursive: true });
  // Written aside and renamed, so a reader in another process never sees the file empty (and reads 0).
  const file = join(dir, name);
  const aside = `${file}.${process.pid}.tmp`;
  writeFileSync(aside, String(id));
  renameSync(aside, file);
}

/**
 * Hands out the next id for `name`: `atLeast` (past every id the caller knows of) or past the last one handed out,
 * whichever is higher, and records it. The caller serialises calls across processes (a lock) where it must.
 */
export function issueId(stateDir: string, name: string, atLeast: number): number {
  const id = Math.max(atLeast, lastIssuedId(stateDir, name) + 1);
  recordIssuedId(stateDir, name, id);
  return id;
}
