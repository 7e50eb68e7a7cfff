import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { keptFieldCount, scalarField } from '../src/query/column-scope.js';
import type { ReadContext } from '../src/query/context.js';
import type { ContentType } from '../src/schema/types.js';
import { readBase } from './helpers/indexed-reads.js';
import { makeProject } from './helpers/project.js';

/**
 * The planner asks for a type's scalar fields by name on every list query (src/query/column-scope.ts): each is made
 * once per content-type and name, and only names of the type's attributes are kept, so the names a client puts in
 * its filters and sorts cannot grow what the server holds.
 */
describe('scalar fields kept per content-type', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;
  let ctx: ReadContext;
  let ct: ContentType;

  beforeAll(async () => {
    made = makeProject();
    project = await openProject(made.dir);
    ctx = { ...readBase(project), status: 'published' } as ReadContext;
    ct = project.schemas.find('articles')!;
  });
  afterAll(() => made.cleanup());

  it('makes each scalar field once, whatever is asked between', () => {
    const views = scalarField(ctx, ct, 'views');
    expect(views).toMatchObject({ spec: { key: 'views' }, type: 'integer' });
    expect(scalarField(ctx, ct, 'title')).toMatchObject({ spec: { key: 'title' } });
    expect(scalarField(ctx, ct, 'views')).toBe(views);
  });

  it('keeps the names of attributes, scalar or not, and no other name', () => {
    const before = keptFieldCount(ct);
    for (let i = 0; i < 100; i++) expect(scalarField(ctx, ct, `nope${i}`)).toBeUndefined();
    expect(keptFieldCount(ct)).toBe(before);
    expect(scalarField(ctx, ct, 'author')).toBeUndefined();
    expect(keptFieldCount(ct)).toBe(before + 1);
    expect(scalarField(ctx, ct, 'author')).toBeUndefined();
    expect(keptFieldCount(ct)).toBe(before + 1);
  });
});
