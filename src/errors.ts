/**
 * One error class that owns its wire shape (Strapi's error envelope), used by every layer.
 * The HTTP layer only maps it to a response; the CLI prints its message.
 */
export type ErrorDetails = Record<string, unknown>;

export class FolioError extends Error {
  readonly status: number;
  readonly errorName: string;
  /** `null` means the key is absent from the wire body, as Strapi does for 500s and raw errors. */
  readonly details: ErrorDetails | null;

  constructor(status: number, name: string, message: string, details: ErrorDetails | null = {}) {
    super(message);
    this.status = status;
    this.errorName = name;
    this.details = details;
  }

  toJSON(): { data: null; error: Record<string, unknown> } {
    const error: Record<string, unknown> = { status: this.status, name: this.errorName, message: this.message };
    if (this.details !== null) error.details = this.details;
    return { data: null, error };
  }
}

export const validationError = (message: string, details: ErrorDetails = {}) =>
  new FolioError(400, 'ValidationError', message, details);

export const invalidKey = (key: string, opts: { path?: string | null; source: 'query' | 'body'; param?: string }) => {
  const path = opts.path ?? null;
  const message = path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`;
  const details: ErrorDetails = { key, path, source: opts.source };
  if (opts.param !== undefined) details.param = opts.param;
  return validationError(message, details);
};

export const notFound = (message = 'Not Found') => new FolioError(404, 'NotFoundError', message, {});
export const forbidden = () => new FolioError(403, 'ForbiddenError', 'Forbidden', {});
export const applicationError = (message: string, details: ErrorDetails = {}) =>
  new FolioError(400, 'ApplicationError', message, details);
export const paginationError = (message: string) => new FolioError(400, 'PaginationError', message, {});

const STORAGE_CODES = new Set(['ENOSPC', 'EROFS', 'EDQUOT', 'EACCES', 'EPERM']);

/**
 * A write the file system refused (full disk, quota, read-only or forbidden folder) as the 507 every route
 * answers with; undefined for any other error. The writers remove what they started, so nothing was changed.
 */
export function storageError(err: unknown): FolioError | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !STORAGE_CODES.has(code)) return undefined;
  return new FolioError(
    507,
    'InsufficientStorageError',
    `The content folder cannot be written (${code}): nothing was changed`,
    {},
  );
}

/** A yup-style collected validation failure: `details.errors` lists every field problem. */
export interface FieldProblem {
  path: string[];
  message: string;
  value?: unknown;
}

export const fieldErrors = (problems: FieldProblem[]) =>
  validationError(problems.length === 1 ? problems[0].message : `${problems.length} errors occurred`, {
    errors: problems.map((p) => ({ path: p.path, message: p.message, name: 'ValidationError', value: p.value })),
  });
