import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Project } from '../project.js';
import { versions, NO_LOCALE } from '../documents/model.js';
import { isOwningSide, type Attribute } from '../schema/types.js';
import { storedValueProblems } from './stored-values.js';

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
export function validateProject(project: Project): Problem[] {
  const problems: Problem[] = [];
  const rel = (f: string) => relative(project.root, f) || f;
  for (const p of project.report.problems)
    problems.push({ file: rel(p.file), path: '', message: p.message.replace(/^attribute "([^"]+)": /, '') });
  const docs = project.documents;
  const locales = new Set(project.config.locales.map((l) => l.code));
  const fileOf = (plural: string, id: string) => rel(join(project.contentDir, 'documents', plural, `${id}.json`));

  for (const ct of project.schemas.contentTypes.values()) {
    const unique = new Map<string, string>();
    for (const doc of docs.index.documents(ct.uid)) {
      const file = fileOf(ct.pluralName, doc.documentId);
      let raw: Record<string, unknown> | undefined;
      try {
        raw = JSON.parse(
          readFileSync(join(project.contentDir, 'documents', ct.pluralName, `${doc.documentId}.json`), 'utf8'),
        );
      } catch {
        /* reported at load */
      }
      if (ct.kind === 'singleType' && docs.index.count(ct.uid) > 1)
        problems.push({
          file,
          path: '',
          message: `${ct.singularName} is a single type but has ${docs.index.count(ct.uid)} documents`,
        });
      if (raw)
        for (const x of storedValueProblems(project.schemas, locales, ct, raw))
          problems.push({ file, path: x.path, message: x.message });
      for (const v of versions(doc)) {
        const where = `${v.locale ? `locales.${v.locale}.` : ''}${v.status}`;
        if (v.status === 'published' || !ct.draftAndPublish) {
          for (const x of docs.publishProblems(ct, v))
            problems.push({ file, path: `${where}.${x.path.join('.')}`, message: x.message });
          for (const [name, attr] of Object.entries(ct.attributes)) {
            const value = v.data[name];
            if (!('unique' in attr) || !attr.unique || value === null || value === undefined || value === '') continue;
            const key = `${name}|${v.locale ?? NO_LOCALE}|${JSON.stringify(value)}`;
            const other = unique.get(key);
            if (other && other !== doc.documentId)
              problems.push({
                file,
                path: `${where}.${name}`,
                message: `${JSON.stringify(value)} is not unique: ${fileOf(ct.pluralName, other)} has it too`,
              });
            else unique.set(key, doc.documentId);
          }
        }
        for (const [name, attr] of Object.entries(ct.attributes))
          checkLinks(project, attr, v.data[name], `${where}.${name}`, file, problems, v.locale);
      }
    }
  }
  return problems;
}

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
    for (const id of Array.isArray(value) ? value : [value]) {
      const doc = typeof id === 'string' ? project.documents.index.get(target.uid, id) : undefined;
      if (!doc)
        problems.push({
          file,
          path,
          message: `points at ${target.singularName} ${JSON.stringify(id)}, which does not exist`,
        });
      else if (target.localized && locale && !doc.slots.has(locale))
        problems.push({
          file,
          path,
          message: `points at ${target.singularName} ${id}, which has no ${locale} version`,
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
