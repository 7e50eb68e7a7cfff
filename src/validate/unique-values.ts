import { join, relative } from 'node:path';
import type { Project } from '../project.js';
import { uniqueClashes } from '../documents/unique-values.js';
import type { Problem } from './validate.js';

/**
 * Values of unique fields (and every uid) that published versions of several documents share in one locale, as
 * a merge of two branches can bring them: each document after the first holding a value is a problem, naming
 * the first one's file.
 */
export function uniqueValueProblems(project: Project): Problem[] {
  const problems: Problem[] = [];
  const fileOf = (plural: string, id: string) =>
    relative(project.root, join(project.contentDir, 'documents', plural, `${id}.json`));
  for (const ct of project.schemas.contentTypes.values()) {
    for (const clash of uniqueClashes(project.schemas, ct, project.documents.index.documents(ct.uid))) {
      const [first, ...others] = clash.documentIds;
      const path = `${clash.locale ? `locales.${clash.locale}.` : ''}published.${clash.field}`;
      for (const id of others)
        problems.push({
          file: fileOf(ct.pluralName, id),
          path,
          message: `${JSON.stringify(clash.value)} is not unique: ${fileOf(ct.pluralName, first)} has it too`,
        });
    }
  }
  return problems;
}
