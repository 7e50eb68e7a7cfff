import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { join, relative, basename } from 'node:path';
import { TEMP_MARK } from '../store/atomic.js';
import { OutsideContentError, folderInside } from '../store/content-bounds.js';
import { readSmallFile } from '../store/read-file.js';
import { checkAttribute, checkModelName } from './validate-schema.js';
import type { Attribute, Component, ContentType, SchemaProblem } from './types.js';

/** Content-types and components of one project, looked up by uid or by API name. */
export class SchemaRegistry {
  readonly contentTypes = new Map<string, ContentType>();
  readonly components = new Map<string, Component>();
  readonly problems: SchemaProblem[] = [];
  private byPlural = new Map<string, ContentType>();
  private bySingular = new Map<string, ContentType>();

  add(ct: ContentType) {
    this.contentTypes.set(ct.uid, ct);
    this.byPlural.set(ct.pluralName, ct);
    this.bySingular.set(ct.singularName, ct);
  }

  /** The content-type routed at `/api/<name>`: a collection by plural name or a single type by singular name. */
  route(name: string): ContentType | undefined {
    const plural = this.byPlural.get(name);
    if (plural?.kind === 'collectionType') return plural;
    const single = this.bySingular.get(name);
    return single?.kind === 'singleType' ? single : undefined;
  }

  bySingularName(name: string) {
    return this.bySingular.get(name);
  }
  byPluralName(name: string) {
    return this.byPlural.get(name);
  }

  /** Resolves a content-type by uid, singular or plural name (what a CLI user types). */
  find(name: string): ContentType | undefined {
    return this.contentTypes.get(name) ?? this.bySingular.get(name) ?? this.byPlural.get(name);
  }

  component(uid: string): Component {
    const c = this.components.get(uid);
    if (!c) throw new Error(`Unknown component ${uid}`);
    return c;
  }
}

/** Temp files older than this were left by a killed writer (a younger one may be renamed into place any moment). */
const STRAY_AFTER_MS = 30_000;

const listJson = (dir: string): string[] => {
  try {
    const names = readdirSync(dir);
    for (const f of names) if (f.startsWith(TEMP_MARK)) removeIfStale(join(dir, f));
    return names
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
};

function removeIfStale(file: string) {
  try {
    if (statSync(file).mtimeMs < Date.now() - STRAY_AFTER_MS) unlinkSync(file);
  } catch {
    /* gone already */
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Loads `types/*.json` and `components/<category>/*.json` below `contentDir`. A broken schema is recorded
 * in `problems` (file, attribute, message) and left out; the others load.
 */
export function loadSchemas(contentDir: string): SchemaRegistry {
  const reg = new SchemaRegistry();
  const rel = (f: string) => relative(contentDir, f) || f;
  // A schema file or folder that is a link out of content/ is reported, not read (store/content-bounds.ts).
  const readJson = (file: string): unknown => JSON.parse(readSmallFile(file, contentDir));
  const inside = (dir: string) => {
    if (folderInside(contentDir, dir)) return true;
    reg.problems.push({ file: rel(dir), message: new OutsideContentError(dir).message });
    return false;
  };

  const typesDir = join(contentDir, 'types');
  const typeFiles = inside(typesDir) ? listJson(typesDir) : [];
  const componentFiles: Array<{ file: string; category: string }> = [];
  const componentsDir = join(contentDir, 'components');
  let categories: string[] = [];
  try {
    if (inside(componentsDir)) categories = readdirSync(componentsDir).sort();
  } catch {
    /* no components */
  }
  for (const category of categories) {
    const dir = join(componentsDir, category);
    try {
      if (!statSync(dir).isDirectory() || !inside(dir)) continue;
    } catch {
      continue;
    }
    for (const file of listJson(dir)) componentFiles.push({ file, category });
  }

  // Parse everything first so references can be checked against the full set of names.
  const parsedTypes: Array<{ file: string; raw: Record<string, unknown> }> = [];
  for (const file of typeFiles) {
    try {
      const raw = readJson(file);
      if (!isObject(raw)) throw new Error('the schema must be a JSON object');
      parsedTypes.push({ file, raw });
    } catch (err) {
      reg.problems.push({ file: rel(file), message: `cannot read schema: ${(err as Error).message}` });
    }
  }
  const parsedComponents: Array<{ file: string; category: string; raw: Record<string, unknown> }> = [];
  for (const { file, category } of componentFiles) {
    try {
      const raw = readJson(file);
      if (!isObject(raw)) throw new Error('the schema must be a JSON object');
      parsedComponents.push({ file, category, raw });
    } catch (err) {
      reg.problems.push({ file: rel(file), message: `cannot read schema: ${(err as Error).message}` });
    }
  }

  const known = {
    contentTypes: new Set(
      parsedTypes.map(({ raw }) => {
        const info = isObject(raw.info) ? raw.info : {};
        return `api::${info.singularName}.${info.singularName}`;
      }),
    ),
    components: new Set(parsedComponents.map(({ file, category }) => `${category}.${basename(file, '.json')}`)),
  };

  for (const { file, category, raw } of parsedComponents) {
    const name = basename(file, '.json');
    const problems: SchemaProblem[] = [];
    const info = isObject(raw.info) ? raw.info : undefined;
    if (!info || typeof info.displayName !== 'string')
      problems.push({ file: rel(file), message: '"info.displayName" is required' });
    const attributes = isObject(raw.attributes) ? raw.attributes : undefined;
    if (!attributes) problems.push({ file: rel(file), message: '"attributes" must be an object' });
    for (const [attr, def] of Object.entries(attributes ?? {})) {
      problems.push(
        ...checkAttribute(rel(file), attr, def, known, {
          draftAndPublish: false,
          allowDynamicZone: false,
          attributes: attributes!,
        }),
      );
    }
    if (problems.length) {
      reg.problems.push(...problems);
      known.components.delete(`${category}.${name}`);
      continue;
    }
    reg.components.set(`${category}.${name}`, {
      uid: `${category}.${name}`,
      category,
      name,
      displayName: info!.displayName as string,
      attributes: attributes as Record<string, Attribute>,
      raw,
      file,
    });
  }

  const seenNames = new Map<string, string>();
  for (const { file, raw } of parsedTypes) {
    const problems: SchemaProblem[] = [];
    const bad = (message: string, attribute?: string) => problems.push({ file: rel(file), attribute, message });
    const kind = raw.kind ?? 'collectionType';
    if (kind !== 'collectionType' && kind !== 'singleType') bad('"kind" must be "collectionType" or "singleType"');
    const info = isObject(raw.info) ? raw.info : {};
    const singularName = info.singularName,
      pluralName = info.pluralName;
    if (typeof singularName !== 'string') bad('"info.singularName" is required');
    else {
      const p = checkModelName(singularName);
      if (p) bad(`info.singularName: ${p}`);
    }
    if (typeof pluralName !== 'string') bad('"info.pluralName" is required');
    else {
      const p = checkModelName(pluralName);
      if (p) bad(`info.pluralName: ${p}`);
    }
    if (singularName === pluralName) bad('"info.singularName" and "info.pluralName" must differ');
    if (typeof info.displayName !== 'string' || !info.displayName) bad('"info.displayName" is required');
    for (const n of [singularName, pluralName]) {
      if (typeof n === 'string' && seenNames.has(n)) bad(`the name "${n}" is already used by ${seenNames.get(n)}`);
    }
    const options = isObject(raw.options) ? raw.options : {};
    if (options.draftAndPublish !== undefined && typeof options.draftAndPublish !== 'boolean')
      bad('"options.draftAndPublish" must be a boolean');
    const draftAndPublish = options.draftAndPublish === true; // absent means false, as Strapi's loader does
    const attributes = isObject(raw.attributes) ? raw.attributes : undefined;
    if (!attributes) bad('"attributes" must be an object');
    for (const [attr, def] of Object.entries(attributes ?? {})) {
      problems.push(
        ...checkAttribute(rel(file), attr, def, known, {
          draftAndPublish,
          allowDynamicZone: true,
          attributes: attributes!,
        }),
      );
    }
    if (typeof singularName === 'string' && basename(file, '.json') !== singularName) {
      bad(`the file name must be the singular name: types/${singularName}.json`);
    }
    if (problems.length) {
      reg.problems.push(...problems);
      continue;
    }
    seenNames.set(singularName as string, rel(file));
    seenNames.set(pluralName as string, rel(file));
    const pluginOptions = isObject(raw.pluginOptions) ? raw.pluginOptions : {};
    const i18n = isObject(pluginOptions.i18n) ? pluginOptions.i18n : {};
    reg.add({
      uid: `api::${singularName}.${singularName}`,
      kind: kind as ContentType['kind'],
      singularName: singularName as string,
      pluralName: pluralName as string,
      displayName: info.displayName as string,
      description: typeof info.description === 'string' ? info.description : undefined,
      draftAndPublish,
      localized: i18n.localized === true,
      attributes: { ...attributes } as Record<string, Attribute>,
      raw,
      file,
    });
  }

  // Relations whose target was dropped, or whose inverse side does not point back, are reported; the
  // relation attribute is then removed so the rest of the type keeps working.
  for (const ct of reg.contentTypes.values()) {
    for (const [name, a] of Object.entries(ct.attributes)) {
      if (a.type !== 'relation' || a.relation.startsWith('morph')) continue;
      const target = reg.contentTypes.get(a.target);
      let message: string | undefined;
      if (!target) message = `"target" ${a.target} failed to load`;
      else {
        const other = a.mappedBy ?? a.inversedBy;
        const back = other ? target.attributes[other] : undefined;
        if (other && (!back || back.type !== 'relation' || back.target !== ct.uid)) {
          message =
            `"${a.mappedBy ? 'mappedBy' : 'inversedBy'}" names ${target.uid}.${other}, ` +
            `which is not a relation back to ${ct.uid}`;
        }
      }
      if (message) {
        reg.problems.push({ file: rel(ct.file), attribute: name, message });
        delete ct.attributes[name];
      }
    }
  }
  return reg;
}
