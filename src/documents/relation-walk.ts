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
  relationWalker(schemas, attrs, opts)(data, visit);
}

/** What a walker does with one attribute of a version or a component: visit a relation, or go into components. */
interface Step {
  name: string;
  relation?: RelationAttribute;
  /** The component of a component attribute; undefined for a zone, whose entries name theirs. */
  component?: string;
}

/**
 * `eachRelation` for many versions of one type: what to look at in the type and in each component is worked
 * out once, and only the attributes that can hold a relation to visit are looked at.
 */
export function relationWalker(
  schemas: SchemaRegistry,
  attrs: Record<string, Attribute>,
  opts: RelationWalk = {},
): (data: Record<string, unknown>, visit: RelationVisit) => void {
  const { into, nestedOnly } = opts;
  const stepsOf = (attrs: Record<string, Attribute>, nested: boolean): Step[] => {
    const steps: Step[] = [];
    for (const [name, attr] of Object.entries(attrs)) {
      // Relations inside components are one-way: each one holds its links.
      if (isRelation(attr)) {
        if (nested || (!nestedOnly && isOwningSide(attr))) steps.push({ name, relation: attr });
      } else if (attr.type === 'component' || attr.type === 'dynamiczone') {
        if (into && !componentsOf(attr).some((uid) => into.has(uid))) continue;
        steps.push({ name, component: attr.type === 'component' ? attr.component : undefined });
      }
    }
    return steps;
  };
  const components = new Map<string, Step[] | undefined>();
  const componentSteps = (uid: string) => {
    if (!components.has(uid)) {
      const comp = !into || into.has(uid) ? schemas.components.get(uid) : undefined;
      components.set(uid, comp && stepsOf(comp.attributes, true));
    }
    return components.get(uid);
  };
  const walk = (steps: Step[], obj: Record<string, unknown>, visit: RelationVisit) => {
    for (const step of steps) {
      if (!(step.name in obj)) continue;
      const value = obj[step.name];
      if (step.relation) visit(step.relation, value, (next) => (obj[step.name] = next));
      else if (Array.isArray(value)) for (const item of value) walkItem(step, item, visit);
      else walkItem(step, value, visit);
    }
  };
  const walkItem = (step: Step, item: unknown, visit: RelationVisit) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return;
    const entry = item as Record<string, unknown>;
    const steps = componentSteps(step.component ?? String(entry.__component));
    if (steps) walk(steps, entry, visit);
  };
  const top = stepsOf(attrs, false);
  return (data, visit) => walk(top, data, visit);
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
