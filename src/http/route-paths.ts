/**
 * The paths of the route modules that load on their first request (see compose.ts): here, not in the
 * modules, so that deciding whether to load one does not load it, and both ask the same question.
 * Each is written for the path as its module compares it (lower-cased or not, as noted).
 */

/** Accounts: sign-in, providers, users (lower-cased). */
export const isAccountsPath = (path: string) =>
  path.startsWith('/api/auth/') ||
  path.startsWith('/api/connect/') ||
  path === '/api/users' ||
  path.startsWith('/api/users/');

/** Roles and permissions of users-permissions (lower-cased). */
export const isRolesPath = (path: string) =>
  path === '/api/users-permissions/permissions' ||
  path === '/api/users-permissions/roles' ||
  path.startsWith('/api/users-permissions/roles/');

/** The upload API (lower-cased). */
export const isUploadApiPath = (path: string) => path === '/api/upload' || path.startsWith('/api/upload/');

/** Where stored uploads are served (as written). */
export const STORED_FILES = '/uploads/';

/** The live events stream (as written). */
export const LIVE_EVENTS_PATH = '/_folio/events';

/** The OpenAPI document and its Swagger UI (as written). */
export const isApiDocsPath = (path: string) =>
  path === '/api/openapi.json' || path === '/documentation' || path.startsWith('/documentation/');

/** The content-type-builder's read routes (lower-cased). */
export const isContentTypeBuilderPath = (path: string) => path.startsWith('/api/content-type-builder/');
