import type { SchemaRegistry } from '../schema/registry.js';
import { type Attribute, type RelationAttribute, isOwningSide, isRelation } from '../schema/types.js';

/** One stored relation value met by `eachRelation`; `set` replaces it where it is stored. */
export type RelationVisit = (attr: RelationAttribute, value: unknown, set: (next: unknown) => void) => void;

export interface RelationWalk {
  /** The components to go into (others are skipped with what they hold); default: every one. */
  into?: ReadonlySet<string>;
  /** Only the relations inside components and dynamic-zone entries, not the version's own. */
  nestedOnly?: boolean;
}

/**
 * Visits the stored value of each owning relation of a version's values (`data`, of a type whose attributes are
 * `attrs`) and of each relation inside its components and dynamic-zone entries, nested ones too.
 */
export function eachRelation(
  schemas: SchemaRegistry,
  attrs: Record<string, Attribute>,
  data: Record<string, unknown>,
  visit: RelationVisit,
  opts: RelationWalk = {},
): void {
  const walk = (attrs: Record<string, Attribute>, obj: Record<string, unknown>, nested: boolean) => {
    for (const [name, attr] of Object.entries(attrs)) {
      if (!(name in obj)) continue;
      const value = obj[name];
      if (isRelation(attr)) {
        // Relations inside components are one-way: each one holds its links.
        if (nested || (!opts.nestedOnly && isOwningSide(attr))) visit(attr, value, (next) => (obj[name] = next));
        continue;
      }
      if (attr.type !== 'component' && attr.type !== 'dynamiczone') continue;
      for (const item of Array.isArray(value) ? value : [value]) {
        if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
        const entry = item as Record<string, unknown>;
        const uid = attr.type === 'component' ? attr.component : String(entry.__component);
        if (opts.into && !opts.into.has(uid)) continue;
        const comp = schemas.components.get(uid);
        if (comp) walk(comp.attributes, entry, true);
      }
    }
  };
  walk(attrs, data, false);
}

/** The component uids an attribute holds values of (none for other attributes). */
export function componentsOf(attr: Attribute): string[] {
  return attr.type === 'component' ? [attr.component] : attr.type === 'dynamiczone' ? attr.components : [];
}

/**
 * The components whose values can hold a relation `wanted` accepts, in themselves or in the components and zones
 * nested in them.
 */
export function componentsReaching(schemas: SchemaRegistry, wanted: (attr: RelationAttribute) => boolean): Set<string> {
  const reaching = new Set<string>();
  // Components nest one another (a component cannot hold itself, but a loop in hand-written files must end).
  for (let grew = true; grew;) {
    grew = false;
    for (const [uid, comp] of schemas.components) {
      if (reaching.has(uid)) continue;
      const reaches = Object.values(comp.attributes).some((a) =>
        isRelation(a) ? wanted(a) : componentsOf(a).some((c) => reaching.has(c)),
      );
      if (reaches) {
        reaching.add(uid);
        grew = true;
      }
    }
  }
  return reaching;
}

/** Whether a type (its attributes `attrs`) has a component or dynamic-zone attribute holding one of `components`. */
export function holdsAnyOf(attrs: Record<string, Attribute>, components: ReadonlySet<string>): boolean {
  return Object.values(attrs).some((a) => componentsOf(a).some((uid) => components.has(uid)));
}
