import type { Job } from '../documents/sliced-work.js';
import type { Attribute, ContentType } from '../schema/types.js';
import { isOwningSide } from '../schema/types.js';
import type { ReadContext } from './context.js';
import type { PopulateTree } from './populate.js';

/**
 * The jobs that must be done before a document of `ct` is shaped with `populate` without reading a whole type
 * on the event loop: the documentId map of every type a relation is looked up in, and, for an inverse relation
 * (its owners found through the owning side's links), the owning type made ready whole (see
 * DocumentIndex.preparing). `self`: the document itself is looked up by documentId.
 */
export function shapingJobs(ctx: ReadContext, ct: ContentType, populate: PopulateTree, self: boolean): Job[] {
  // Nothing to look up: most list reads, asked on every request.
  if (!self && populate.size === 0) return [];
  const jobs = new Set<Job>();
  const add = (job: Job | undefined) => job && jobs.add(job);
  if (self) add(ctx.index.mapping(ct.uid));
  const visit = (attrs: Record<string, Attribute>, tree: PopulateTree, owner: ContentType | undefined) => {
    for (const [name, node] of tree) {
      if (name === 'localizations') {
        if (owner) add(ctx.index.mapping(owner.uid));
        visit(owner?.attributes ?? {}, node.populate, owner);
        continue;
      }
      const attr = attrs[name];
      if (attr?.type === 'relation') {
        const target = ctx.schemas.contentTypes.get(attr.target);
        if (!target) continue;
        add(ctx.index.mapping(target.uid));
        if (!isOwningSide(attr)) add(ctx.index.preparing(target.uid));
        visit(target.attributes, node.populate, target);
      } else if (attr?.type === 'component') {
        const comp = ctx.schemas.components.get(attr.component);
        if (comp) visit(comp.attributes, node.populate, undefined);
      } else if (attr?.type === 'dynamiczone') {
        for (const [uid, sub] of node.on ?? []) {
          const comp = ctx.schemas.components.get(uid);
          if (comp) visit(comp.attributes, sub.populate, undefined);
        }
      }
    }
  };
  visit(ct.attributes, populate, ct);
  return [...jobs];
}

/** Waits for `jobs`, each run in slices meanwhile (see SlicedRunner). */
export async function finish(ctx: ReadContext, jobs: Job[]) {
  for (const job of jobs) await ctx.index.work.wait(job);
}
