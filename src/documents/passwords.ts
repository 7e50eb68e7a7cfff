import type { SchemaRegistry } from '../schema/registry.js';
import type { Attribute } from '../schema/types.js';

/** Strapi hashes `password` attributes with bcryptjs at 10 rounds; the same format keeps data portable. */
const ROUNDS = 10;

/**
 * Replaces every clear-text value of a `password` attribute in checked input values (top level, inside
 * components and dynamic-zone entries) with its bcrypt hash, so no password reaches a document file.
 */
export async function hashPasswordValues(
  reg: SchemaRegistry,
  attributes: Record<string, Attribute>,
  values: Record<string, unknown>,
): Promise<void> {
  const pending: Array<Promise<void>> = [];
  // Loaded here, not with the module: only writes of password values need it, never a server's start.
  let bcrypt: Promise<typeof import('bcryptjs')> | undefined;
  const walk = (attrs: Record<string, Attribute>, data: Record<string, unknown>) => {
    for (const [name, value] of Object.entries(data)) {
      const attr = Object.prototype.hasOwnProperty.call(attrs, name) ? attrs[name] : undefined;
      if (!attr || value === null || value === undefined) continue;
      if (attr.type === 'password' && typeof value === 'string') {
        pending.push(
          (bcrypt ??= import('bcryptjs'))
            .then((m) => m.default.hash(value, ROUNDS))
            .then((h) => {
              data[name] = h;
            }),
        );
      } else if (attr.type === 'component') {
        const comp = reg.components.get(attr.component);
        if (!comp) continue;
        for (const item of Array.isArray(value) ? value : [value])
          if (item && typeof item === 'object') walk(comp.attributes, item as Record<string, unknown>);
      } else if (attr.type === 'dynamiczone' && Array.isArray(value)) {
        for (const item of value as Array<Record<string, unknown>>) {
          const comp = item && reg.components.get(item.__component as string);
          if (comp) walk(comp.attributes, item);
        }
      }
    }
  };
  walk(attributes, values);
  await Promise.all(pending);
}
