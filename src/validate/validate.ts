import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Project } from '../project.js';
import { parseInput } from '../documents/input.js';
import { linkParts } from '../documents/file-format.js';
import { versions, type Status, type Version } from '../documents/model.js';
import { isOwningSide, type Attribute, type ContentType } from '../schema/types.js';
import { FolioError } from '../errors.js';
import { storedValueProblems } from '../documents/stored-values.js';
import { recheckRejectedFile } from './rejected-file.js';
import { uniqueValueProblems } from './unique-values.js';
import { ReadBodies } from './open.js';

export interface Problem {
  file: string;
  path: string;
  message: string;
}

/**
 * Checks a whole content tree: schemas, every document against its schema (draft-level checks for every
 * version, publish-level checks for published ones), relations and media pointing at things that exist,
 * unique values, and temp files left behind. Numeric ids used twice (after a merge) are notices, not
 * problems: see id-clashes.ts.
 */
export function validateProject(
  project: Project,
  onProgress?: (done: number, total: number) => void,
  bodies: ReadBodies = new ReadBodies(),
): Problem[] {
  const problems: Problem[] = [];
  const rel = (f: string) => relative(project.root, f) || f;
  // A file turned away at its first problem is read again for all of them (see rejected-file.ts).
  const checkValues = (ct: ContentType, data: Record<string, unknown>, where: string, status: Status) => {
    const found: Array<{ path: string; message: string }> = [];
    try {
      parseInputStored(project, ct.attributes, data);
    } catch (err) {
      const list = ((err as FolioError).details as { errors?: Array<{ path: string[]; message: string }> } | null)
        ?.errors;
      if (list) for (const x of list) found.push({ path: `${where}.${x.path.join('.')}`, message: x.message });
      else found.push({ path: where, message: (err as Error).message });
    }
    if (status === 'published' || !ct.draftAndPublish)
      for (const x of project.documents.publishProblems(ct, { data, status } as Version))
        found.push({ path: `${where}.${x.path.join('.')}`, message: x.message });
    return found;
  };
  for (const p of project.report.problems) {
    const all = recheckRejectedFile(project, p.file, checkValues);
    if (all) for (const x of all) problems.push({ file: rel(p.file), ...x });
    else {
      // A schema's problem names its attribute: the line's path.
      const attribute = /^attribute "([^"]+)": /.exec(p.message);
      problems.push({ file: rel(p.file), path: attribute?.[1] ?? '', message: p.message.slice(attribute?.[0].length) });
    }
  }
  const docs = project.documents;
  const locales = new Set(project.config.locales.map((l) => l.code));
  const fileOf = (plural: string, id: string) => rel(join(project.contentDir, 'documents', plural, `${id}.json`));

  let total = 0;
  let done = 0;
  for (const ct of project.schemas.contentTypes.values()) total += docs.index.count(ct.uid);
  for (const ct of project.schemas.contentTypes.values()) {
    // Per type, once: the folder's name as printed, and the attributes that link to something.
    const before = fileOf(ct.pluralName, '').slice(0, -'.json'.length);
    const links = Object.entries(ct.attributes).filter(([, a]) => LINKING.has(a.type));
    for (const doc of docs.index.documents(ct.uid)) {
      onProgress?.(done++, total);
      const file = `${before}${doc.documentId}.json`;
      const all = versions(doc);
      // Decoding a document (on first use of its values) hands the body of its file to `bodies`.
      for (const v of all) void v.data;
      const raw = bodies.take(project, ct, doc.documentId);
      if (ct.kind === 'singleType' && docs.index.count(ct.uid) > 1)
        problems.push({
          file,
          path: '',
          message: `${ct.singularName} is a single type but has ${docs.index.count(ct.uid)} documents`,
        });
      if (raw)
        for (const x of storedValueProblems(project.schemas, locales, ct, raw))
          problems.push({ file, path: x.path, message: x.message });
      for (const v of all) {
        const where = `${v.locale ? `locales.${v.locale}.` : ''}${v.status}`;
        if (v.status === 'published' || !ct.draftAndPublish) {
          for (const x of docs.publishProblems(ct, v))
            problems.push({ file, path: `${where}.${x.path.join('.')}`, message: x.message });
        }
        for (const [name, attr] of links)
          checkLinks(project, attr, v.data[name], `${where}.${name}`, file, problems, v.locale);
      }
    }
  }
  problems.push(...uniqueValueProblems(project));
  return problems;
}

/** The attribute kinds checkLinks looks into. */
const LINKING = new Set(['relation', 'media', 'component', 'dynamiczone']);

function checkLinks(
  project: Project,
  attr: Attribute,
  value: unknown,
  path: string,
  file: string,
  problems: Problem[],
  locale: string | null,
) {
  if (value === null || value === undefined) return;
  if (attr.type === 'relation') {
    const target = project.schemas.contentTypes.get(attr.target);
    if (!target || !isOwningSide(attr)) return;
    for (const link of Array.isArray(value) ? value : [value]) {
      // A link from a type without locales may name the locale of the version it links (see file-format.ts).
      const named = typeof link === 'string' ? linkParts(link) : undefined;
      const id = named?.documentId ?? link;
      const at = locale ?? (target.localized ? (named?.locale ?? project.config.defaultLocale) : null);
      const doc = typeof id === 'string' ? project.documents.index.get(target.uid, id) : undefined;
      if (!doc)
        problems.push({
          file,
          path,
          message: existsSync(join(project.contentDir, 'documents', target.pluralName, `${String(id)}.json`))
            ? `points at ${target.singularName} ${JSON.stringify(id)}, whose file has problems (listed for it)`
            : `points at ${target.singularName} ${JSON.stringify(id)}, which does not exist`,
        });
      else if (target.localized && at && !doc.slots.has(at))
        problems.push({
          file,
          path,
          message: `points at ${target.singularName} ${id}, which has no ${at} version`,
        });
    }
  } else if (attr.type === 'media') {
    for (const ref of Array.isArray(value) ? value : [value]) {
      if (!project.documents.media.resolve(ref as string))
        problems.push({ file, path, message: `uses media file ${JSON.stringify(ref)}, which is not in the library` });
    }
  } else if (attr.type === 'component' || attr.type === 'dynamiczone') {
    const items = Array.isArray(value) ? value : [value];
    items.forEach((item, i) => {
      const obj = item as Record<string, unknown>;
      const comp = project.schemas.components.get(
        attr.type === 'component' ? attr.component : String(obj?.__component),
      );
      if (!comp || !obj) return;
      for (const [k, sub] of Object.entries(comp.attributes))
        checkLinks(project, sub, obj[k], `${path}${Array.isArray(value) ? `.${i}` : ''}.${k}`, file, problems, locale);
    });
  }
}

/** Stored values use the write syntax of the REST body, so the body parser checks them too. */
function parseInputStored(project: Project, attributes: Record<string, Attribute>, data: Record<string, unknown>) {
  // Relations and media are checked against the index and the library separately (checkLinks).
  const plain: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data))
    if (attributes[k]?.type !== 'relation' && attributes[k]?.type !== 'media')
      plain[k] = stripNested(project, attributes[k], v);
  parseInput(project.schemas, attributes, plain);
}

/** Relations and media inside components are checked by checkLinks; the body parser sees the rest. */
function stripNested(project: Project, attr: Attribute | undefined, v: unknown): unknown {
  if (!attr || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => stripNested(project, attr, x));
  if (attr.type !== 'component' && attr.type !== 'dynamiczone') return v;
  const obj = v as Record<string, unknown>;
  const comp = project.schemas.components.get(attr.type === 'component' ? attr.component : String(obj.__component));
  if (!comp) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(obj)) {
    const sub = comp.attributes[k];
    if (sub && (sub.type === 'relation' || sub.type === 'media')) continue;
    out[k] = sub ? stripNested(project, sub, x) : x;
  }
  return out;
}
