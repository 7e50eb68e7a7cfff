import { defineRoutes } from '../http-kit/route.js';

const ACTION = 'plugin::upload.content-api.';

/**
 * The upload plugin's routes, with Strapi's permissions, and the stored files themselves at `GET /uploads/<name>`
 * (open to every caller, matched as written).
 */
export const uploadRoutes = defineRoutes({
  routes: [
    { method: 'POST', path: '/api/upload', handler: 'upload', action: `${ACTION}upload` },
    { method: 'GET', path: '/api/upload/files', handler: 'find', action: `${ACTION}find` },
    { method: 'GET', path: '/api/upload/files/page', handler: 'findPage', action: `${ACTION}findPage` },
    { method: 'GET', path: '/api/upload/files/:id', handler: 'findOne', action: `${ACTION}findOne` },
    { method: 'DELETE', path: '/api/upload/files/:id', handler: 'destroy', action: `${ACTION}destroy` },
    { method: 'GET', path: '/uploads/**', handler: 'storedFile', exactCase: true },
  ],
  load: async () => (await import('./http.js')).uploadHandlers,
});
