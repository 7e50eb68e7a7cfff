import { defineRoutes, type Route, type RouteModule } from '../http-kit/route.js';
import type { UsersConfig } from './config.js';
import type { UsersHandler } from './http.js';
import type { AuthService } from './service.js';

const up = (action: string) => `plugin::users-permissions.${action}`;

/**
 * The users-permissions account routes: sign-in, e-mail flows, providers, sessions and users. The session
 * routes are a module of their own, enabled in refresh mode only: in legacy mode their paths are not routes (a
 * 404). `settings` is read on each request, so a running server follows folio.json's `users` section.
 */
export function accountRoutes(
  auth: AuthService,
  settings: () => UsersConfig,
  log: (message: string) => void,
): RouteModule[] {
  const route = (method: Route['method'], path: string, handler: UsersHandler, action: string) => ({
    method,
    path,
    handler,
    action: up(action),
  });
  const auths: Route<UsersHandler>[] = [
    route('POST', '/api/auth/local/register', 'register', 'auth.register'),
    route('POST', '/api/auth/local', 'login', 'auth.callback'),
    route('POST', '/api/auth/change-password', 'changePassword', 'auth.changePassword'),
    route('POST', '/api/auth/forgot-password', 'forgotPassword', 'auth.forgotPassword'),
    route('POST', '/api/auth/reset-password', 'resetPassword', 'auth.resetPassword'),
    route('GET', '/api/auth/email-confirmation', 'emailConfirmation', 'auth.emailConfirmation'),
    route('POST', '/api/auth/send-email-confirmation', 'sendEmailConfirmation', 'auth.sendEmailConfirmation'),
  ];
  const sessions: Route<UsersHandler>[] = [
    route('POST', '/api/auth/refresh', 'refresh', 'auth.refresh'),
    route('POST', '/api/auth/logout', 'logout', 'auth.logout'),
    route('GET', '/api/auth/sessions', 'sessions', 'auth.getSessions'),
    route('DELETE', '/api/auth/sessions/:id', 'revokeSession', 'auth.revokeSession'),
  ];
  let handlers: ReturnType<RouteModule<UsersHandler>['load']> | undefined;
  const load = () => {
    handlers ??= import('./http.js').then((m) => m.usersHandlers(auth, settings, log));
    handlers.catch(() => (handlers = undefined));
    return handlers;
  };
  // h3's router does not go back from a fixed segment to a parameter: `/api/auth/local/callback` is named
  // beside `/api/auth/:provider/callback`, for each fixed name under /api/auth/.
  const fixed = new Set([...auths, ...sessions].map((r) => r.path.split('/')[3]));
  return [
    defineRoutes({
      routes: [
        ...auths,
        route('GET', '/api/auth/:provider/callback', 'callback', 'auth.callback'),
        ...[...fixed].map((name) => route('GET', `/api/auth/${name}/callback`, 'callback', 'auth.callback')),
        route('GET', '/api/connect/:provider', 'connect', 'auth.connect'),
        route('GET', '/api/connect/:provider/**', 'connect', 'auth.connect'),
        route('GET', '/api/users/me', 'me', 'user.me'),
        route('GET', '/api/users/count', 'count', 'user.count'),
        route('GET', '/api/users', 'find', 'user.find'),
        route('POST', '/api/users', 'create', 'user.create'),
        route('GET', '/api/users/:id', 'findOne', 'user.findOne'),
        route('PUT', '/api/users/:id', 'update', 'user.update'),
        route('DELETE', '/api/users/:id', 'destroy', 'user.destroy'),
      ],
      load,
    }),
    defineRoutes({ routes: sessions, load, enabled: () => auth.config.jwtManagement === 'refresh' }),
  ];
}

/** The roles and permissions routes of users-permissions, over content/permissions.json. */
export function rolesRoutes(auth: AuthService): RouteModule {
  const route = (method: Route['method'], path: string, handler: RolesHandler, action: string) => ({
    method,
    path,
    handler,
    action: up(action),
  });
  return defineRoutes({
    routes: [
      route('GET', '/api/users-permissions/permissions', 'permissions', 'permissions.getPermissions'),
      route('GET', '/api/users-permissions/roles', 'find', 'role.find'),
      route('POST', '/api/users-permissions/roles', 'create', 'role.createRole'),
      route('GET', '/api/users-permissions/roles/:id', 'findOne', 'role.findOne'),
      route('PUT', '/api/users-permissions/roles/:id', 'update', 'role.updateRole'),
      route('DELETE', '/api/users-permissions/roles/:id', 'destroy', 'role.deleteRole'),
    ],
    load: async () => (await import('./roles-http.js')).rolesHandlers(auth),
  });
}

type RolesHandler = 'permissions' | 'find' | 'create' | 'findOne' | 'update' | 'destroy';
