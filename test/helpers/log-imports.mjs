// Preloaded with `node --import`: appends the URL of each module the process loads to $FOLIO_IMPORT_LOG, one a
// line. The hook runs on the loader's thread, which writes the file itself.
import { register } from 'node:module';

const hook = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(process.env.FOLIO_IMPORT_LOG)}, url + '\\n');
  return next(url, context);
}
`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
