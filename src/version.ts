import { readFileSync } from 'node:fs';

/** Folio's version, from package.json (src/ and dist/ both sit one level below it). */
export const FOLIO_VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return '0.0.0';
  }
})();
