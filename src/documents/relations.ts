import { validationError } from '../errors.js';
import type { RelationAttribute } from '../schema/types.js';
import { isToMany } from '../schema/types.js';
import type { RelationOp, RelationRef } from './input.js';

/**
 * Applies a relation operation to the current ordered list of target documentIds (Strapi's
 * set / connect / disconnect with positions). `resolve` maps a body reference to a documentId or throws.
 */
export function applyRelationOp(
  attr: RelationAttribute,
  current: string[],
  op: RelationOp,
  resolve: (ref: RelationRef) => string,
  label: (documentId: string) => string,
): string[] {
  let result: string[];
  if (op.kind === 'set') {
    result = [];
    for (const ref of op.items) {
      const id = resolve(ref);
      if (!result.includes(id)) result.push(id);
    }
  } else {
    const disconnect = new Set(op.disconnect.map(resolve));
    result = current.filter((id) => !disconnect.has(id));
    const seen = new Map<string, string>();
    for (const ref of op.connect) {
      const id = resolve(ref);
      const key = JSON.stringify(ref.position ?? null);
      if (seen.has(id)) {
        if (seen.get(id) !== key)
          throw validationError(
            `The relation with id ${label(id)} is already connected. You cannot connect the same relation twice.`,
          );
        continue;
      }
      seen.set(id, key);
      const pos = ref.position;
      const existing = result.indexOf(id);
      if (!pos || (!pos.before && !pos.after && !pos.start)) {
        // Default: append at the end; with an explicit `end`, move an existing link to the end.
        if (existing === -1) result.push(id);
        else if (pos?.end) {
          result.splice(existing, 1);
          result.push(id);
        }
        continue;
      }
      if (existing !== -1) result.splice(existing, 1);
      if (pos.start) {
        result.unshift(id);
        continue;
      }
      const anchorRef = (pos.before ?? pos.after)!;
      const anchor = resolve(
        typeof anchorRef === 'number' ? { id: anchorRef } : { documentId: anchorRef, locale: pos.locale },
      );
      const at = result.indexOf(anchor);
      if (at === -1) {
        // Strapi names rows by their numeric ids in this message, the position included.
        const shown =
          pos.before !== undefined
            ? { before: Number(label(anchor)) || anchor }
            : { after: Number(label(anchor)) || anchor };
        throw validationError(
          `There was a problem connecting relation with id ${label(id)} at position ${JSON.stringify(shown)}. ` +
            `The relation with id ${label(anchor)} needs to be connected first.`,
        );
      }
      result.splice(pos.before !== undefined ? at : at + 1, 0, id);
    }
  }
  if (!isToMany(attr) && result.length > 1) result = [result[result.length - 1]];
  return result;
}

/** One link to make or remove on the owning side: the owner's version(s) in `locale` (and `status`, if set). */
export interface InverseEdit {
  documentId: string;
  locale: string;
  status?: 'draft' | 'published';
  link: boolean;
}

/**
 * A write on the inverse side of a relation from a type without locales to a localized owner: each locale's
 * version of an owner is linked on its own, so `connect`, `disconnect` and `set` name one locale (the entry's
 * `locale`, else the default) and, when given, one status. `current` lists the owner versions linked now.
 * The edits are applied in order: removals before the links that replace them.
 */
export function inverseEditsAcrossLocales(
  attr: RelationAttribute,
  current: Array<{ documentId: string; locale: string }>,
  op: RelationOp,
  target: (ref: RelationRef) => Omit<InverseEdit, 'link'>,
): InverseEdit[] {
  const edits: InverseEdit[] = [];
  const unlinkAll = () => {
    for (const c of current) edits.push({ ...c, link: false });
  };
  if (op.kind === 'set') {
    unlinkAll();
    const items = op.items.map(target);
    for (const t of isToMany(attr) ? items : items.slice(-1)) edits.push({ ...t, link: true });
    return edits;
  }
  for (const ref of op.disconnect) edits.push({ ...target(ref), link: false });
  const connect = op.connect.map(target);
  if (!isToMany(attr) && connect.length) {
    // A to-one inverse side holds one owner: the last connected replaces the others.
    unlinkAll();
    edits.push({ ...connect[connect.length - 1], link: true });
    return edits;
  }
  for (const t of connect) edits.push({ ...t, link: true });
  return edits;
}

/** The documentIds a stored relation (or media) value names: one, a list, or none. */
export function targetList(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return [];
}
