import type { Attribute, ComponentType, Model } from './model';

type Item = Record<string, unknown>;

/**
 * A stored value (as the API read it, populated) turned into what a write takes: media as file ids, relations
 * as `{ set }` of documentIds, components and dynamic-zone entries in full without their ids.
 */
export function toInput(model: Model, attr: Attribute, value: unknown): unknown {
  if (attr.type === 'relation') {
    const list = Array.isArray(value) ? value : value ? [value] : [];
    return { set: list.map((r) => (r as { documentId: string }).documentId) };
  }
  if (value === null || value === undefined) return attr.type === 'dynamiczone' ? [] : null;
  switch (attr.type) {
    case 'media':
      return Array.isArray(value)
        ? value.map((f) => (f as { id: number }).id)
        : ((value as { id?: number }).id ?? null);
    case 'component': {
      const c = attr.component ? model.components.get(attr.component) : undefined;
      const one = (item: unknown) => itemInput(model, c, item as Item);
      return attr.repeatable ? (value as unknown[]).map(one) : one(value);
    }
    case 'dynamiczone':
      return (value as Item[]).map((item) => ({
        __component: item.__component,
        ...itemInput(model, model.components.get(String(item.__component)), item),
      }));
    default:
      return value;
  }
}

function itemInput(model: Model, c: ComponentType | undefined, item: Item): Item {
  const out: Item = {};
  for (const [name, attr] of Object.entries(c?.attributes ?? {}))
    if (name in item) out[name] = toInput(model, attr, item[name]);
  return out;
}
