import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { scalarField } from '../src/query/column-scope.js';
import { makeProject } from './helpers/project.js';
import { prepared } from './helpers/indexed-reads.js';

/**
 * Which fields the query indexes may hold a column of: a document's own scalar fields, read as a filter reads
 * them; never a private field (its values would be held for queries no caller may make), a relation or a
 * component.
 */
describe('fields the query indexes read', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    project = await openProject(made.dir);
  });
  afterAll(() => made.cleanup());

  it('are the scalar fields a filter may name, read as the filter reads them', () => {
    const { ct, context } = prepared(project, 'articles', {});
    const title = scalarField(context, ct, 'title');
    expect(title?.type).toBe('string');
    expect(title?.spec.extract({ data: { title: 'Hello' } } as never)).toBe('Hello');
    expect(scalarField(context, ct, 'views')?.type).toBe('integer');
    for (const name of ['secretNote', 'author', 'seo', 'cover', 'nothing'])
      expect(scalarField(context, ct, name), name).toBeUndefined();
  });
});
