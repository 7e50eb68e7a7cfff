/** `shared.rich-text` -> `SharedRichText`, `article` -> `Article`: names for generated types and schemas. */
export const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');
