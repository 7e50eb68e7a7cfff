import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../store/atomic.js';
import { serialize } from '../../store/serialize.js';
import { loadSchemas } from '../../schema/registry.js';
import { contentDirOf } from '../../project.js';
import type { GlobalOptions } from '../context.js';
import { CliError } from '../output.js';
import { unknownType } from '../suggest.js';

export type Json = Record<string, unknown>;

export const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;
const ORDER = ['kind', 'collectionName', 'info', 'options', 'pluginOptions', 'attributes'];
/** Schema files keep Strapi's key order, so a change is a small diff. */
const ordered = (schema: Json) => {
  const out: Json = {};
  for (const k of ORDER) if (k in schema) out[k] = schema[k];
  for (const [k, v] of Object.entries(schema)) if (!(k in out)) out[k] = v;
  return out;
};
export const writeSchema = (file: string, schema: Json) => writeFileAtomic(file, serialize(ordered(schema)));

/** Where the builder commands find the project's content folder and its content-types. */
export function builderContext(globals: () => GlobalOptions) {
  const contentDir = () => contentDirOf(globals().dir ?? process.cwd());
  const typeFile = (singular: string) => join(contentDir(), 'types', `${singular}.json`);
  const findType = (name: string) => {
    const reg = loadSchemas(contentDir());
    const ct = reg.find(name);
    if (!ct) throw new CliError(unknownType(name, reg.contentTypes.values()));
    return { reg, ct, file: ct.file, schema: readJson(ct.file) };
  };
  return { contentDir, typeFile, findType };
}

export type BuilderContext = ReturnType<typeof builderContext>;
