/**
 * Deterministic JSON text for files under content/: 2-space indent and a trailing newline. Keys keep the
 * order the writer built them in (schema order for attributes), so the same data always gives the same bytes.
 */
export const serialize = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
