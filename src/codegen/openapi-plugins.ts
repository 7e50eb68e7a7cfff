/**
 * The OpenAPI paths and schemas of the plugin routes Folio serves besides the content-types, as
 * Strapi's documentation plugin lists them: users & permissions (auth, users, roles) and upload.
 * Static: they do not depend on the project's schemas.
 */
type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ 'application/json': { schema } });
const ok = (schema: Json, description = 'OK') => ({ 200: { description, content: json(schema) } });
const body = (properties: Record<string, Json>, required: string[]) => ({
  required: true,
  content: json({ type: 'object', properties, required }),
});
const str = { type: 'string' };
const id = (name = 'id') => ({ name, in: 'path', required: true, schema: { type: 'integer' } });

export const pluginSchemas: Json = {
  User: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      documentId: str,
      username: str,
      email: { type: 'string', format: 'email' },
      provider: str,
      confirmed: { type: 'boolean' },
      blocked: { type: 'boolean' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      publishedAt: { type: 'string', format: 'date-time' },
    },
  },
  AuthResponse: {
    type: 'object',
    properties: {
      jwt: str,
      user: ref('User'),
      refreshToken: { ...str, description: 'Refresh-token mode (users.jwtManagement "refresh") without the cookie' },
    },
    required: ['jwt', 'user'],
  },
  Role: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      documentId: str,
      name: str,
      description: str,
      type: str,
      nb_users: { type: 'integer' },
      permissions: { type: 'object' },
    },
  },
};

/** Error answers, by status, referring to the shared Error schema. */
type Errors = (codes: number[]) => Json;

export function pluginPaths(errors: Errors): Json {
  const auth = ['Users-Permissions - Auth'];
  const users = ['Users-Permissions - User'];
  const roles = ['Users-Permissions - Role'];
  const upload = ['Upload - File'];
  const password = {
    password: { type: 'string', format: 'password' },
    passwordConfirmation: { type: 'string', format: 'password' },
  };
  const user = ok(ref('User'));
  /** What a create or an update of a user may send. */
  const userFields = {
    username: str,
    email: { type: 'string', format: 'email' },
    password: password.password,
    role: { type: 'integer' },
    confirmed: { type: 'boolean' },
    blocked: { type: 'boolean' },
  };
  const credentials = { ...ok(ref('AuthResponse')), ...errors([400, 401, 403]) };
  const role = {
    type: 'object',
    properties: { name: str, description: str, type: str, permissions: { type: 'object' } },
  };
  return {
    '/api/auth/local': {
      post: {
        tags: auth,
        operationId: 'login',
        summary: 'Log in with an identifier (username or e-mail) and a password',
        requestBody: body({ identifier: str, password: password.password }, ['identifier', 'password']),
        responses: credentials,
      },
    },
    '/api/auth/local/register': {
      post: {
        tags: auth,
        operationId: 'register',
        summary: 'Register a user (with users.emailConfirmation: answers `{ user }` and sends the confirmation link)',
        requestBody: body({ username: str, email: { type: 'string', format: 'email' }, password: password.password }, [
          'username',
          'email',
          'password',
        ]),
        responses: credentials,
      },
    },
    '/api/auth/change-password': {
      post: {
        tags: auth,
        operationId: 'changePassword',
        summary: "Change the calling user's password",
        requestBody: body({ currentPassword: password.password, ...password }, [
          'currentPassword',
          'password',
          'passwordConfirmation',
        ]),
        responses: credentials,
      },
    },
    '/api/auth/forgot-password': {
      post: {
        tags: auth,
        operationId: 'forgotPassword',
        summary: 'Send a reset code (Folio logs it to the server log)',
        requestBody: body({ email: { type: 'string', format: 'email' } }, ['email']),
        responses: { ...ok({ type: 'object', properties: { ok: { type: 'boolean' } } }), ...errors([400, 403]) },
      },
    },
    '/api/auth/reset-password': {
      post: {
        tags: auth,
        operationId: 'resetPassword',
        summary: 'Set a new password with a reset code',
        requestBody: body({ code: str, ...password }, ['code', 'password', 'passwordConfirmation']),
        responses: credentials,
      },
    },
    '/api/auth/email-confirmation': {
      get: {
        tags: auth,
        operationId: 'emailConfirmation',
        summary: 'Confirm an e-mail address, then redirect (users.emailConfirmationRedirection)',
        parameters: [{ name: 'confirmation', in: 'query', required: true, schema: str }],
        responses: { 302: { description: 'Confirmed; redirects' }, ...errors([400, 403]) },
      },
    },
    '/api/auth/send-email-confirmation': {
      post: {
        tags: auth,
        operationId: 'sendEmailConfirmation',
        summary: 'Send the confirmation link again',
        requestBody: body({ email: { type: 'string', format: 'email' } }, ['email']),
        responses: {
          ...ok({ type: 'object', properties: { email: str, sent: { type: 'boolean' } } }),
          ...errors([400, 403]),
        },
      },
    },
    '/api/auth/refresh': {
      post: {
        tags: auth,
        operationId: 'refresh',
        summary: 'A new access token from a refresh token (body or cookie; refresh-token mode only)',
        requestBody: { content: json({ type: 'object', properties: { refreshToken: str } }) },
        responses: {
          ...ok({ type: 'object', properties: { jwt: str, refreshToken: str } }),
          ...errors([400, 401, 404]),
        },
      },
    },
    '/api/auth/logout': {
      post: {
        tags: auth,
        operationId: 'logout',
        summary: 'End the calling session (refresh-token mode only)',
        responses: { ...ok({ type: 'object', properties: { ok: { type: 'boolean' } } }), ...errors([401, 404]) },
      },
    },
    '/api/auth/sessions': {
      get: {
        tags: auth,
        operationId: 'listSessions',
        summary: "The calling user's sessions (refresh-token mode only)",
        responses: { ...ok({ type: 'object' }), ...errors([401, 404]) },
      },
    },
    '/api/auth/sessions/{id}': {
      delete: {
        tags: auth,
        operationId: 'revokeSession',
        summary: "End one of the calling user's sessions (refresh-token mode only)",
        parameters: [{ name: 'id', in: 'path', required: true, schema: str }],
        responses: { ...ok({ type: 'object' }), ...errors([401, 404]) },
      },
    },
    '/api/users/me': {
      get: {
        tags: users,
        operationId: 'me',
        summary: 'The calling user',
        responses: { ...user, ...errors([401, 403]) },
      },
    },
    '/api/users/count': {
      get: { tags: users, operationId: 'countUsers', responses: { ...ok({ type: 'integer' }), ...errors([401, 403]) } },
    },
    '/api/users': {
      get: {
        tags: users,
        operationId: 'listUsers',
        summary: 'Users (a plain array, as Strapi answers)',
        responses: { ...ok({ type: 'array', items: ref('User') }), ...errors([400, 401, 403]) },
      },
      post: {
        tags: users,
        operationId: 'createUser',
        requestBody: body(userFields, ['username', 'email', 'password']),
        responses: { 201: { description: 'Created', content: json(ref('User')) }, ...errors([400, 401, 403]) },
      },
    },
    '/api/users/{id}': {
      get: {
        tags: users,
        operationId: 'getUser',
        parameters: [id()],
        responses: { ...user, ...errors([401, 403, 404]) },
      },
      put: {
        tags: users,
        operationId: 'updateUser',
        parameters: [id()],
        requestBody: body(userFields, []),
        responses: { ...user, ...errors([400, 401, 403, 404]) },
      },
      delete: {
        tags: users,
        operationId: 'deleteUser',
        parameters: [id()],
        responses: { ...user, ...errors([401, 403, 404]) },
      },
    },
    '/api/users-permissions/permissions': {
      get: {
        tags: roles,
        operationId: 'listPermissions',
        summary: 'Every action a role can be granted, by plugin and controller',
        responses: {
          ...ok({ type: 'object', properties: { permissions: { type: 'object' } } }),
          ...errors([401, 403]),
        },
      },
    },
    '/api/users-permissions/roles': {
      get: {
        tags: roles,
        operationId: 'listRoles',
        responses: {
          ...ok({ type: 'object', properties: { roles: { type: 'array', items: ref('Role') } } }),
          ...errors([401, 403]),
        },
      },
      post: {
        tags: roles,
        operationId: 'createRole',
        requestBody: { required: true, content: json(role) },
        responses: { ...ok({ type: 'object', properties: { ok: { type: 'boolean' } } }), ...errors([400, 401, 403]) },
      },
    },
    '/api/users-permissions/roles/{id}': {
      get: {
        tags: roles,
        operationId: 'getRole',
        parameters: [id()],
        responses: { ...ok({ type: 'object', properties: { role: ref('Role') } }), ...errors([401, 403, 404]) },
      },
      put: {
        tags: roles,
        operationId: 'updateRole',
        parameters: [id()],
        requestBody: { required: true, content: json(role) },
        responses: {
          ...ok({ type: 'object', properties: { ok: { type: 'boolean' } } }),
          ...errors([400, 401, 403, 404]),
        },
      },
      delete: {
        tags: roles,
        operationId: 'deleteRole',
        parameters: [id()],
        responses: {
          ...ok({ type: 'object', properties: { ok: { type: 'boolean' } } }),
          ...errors([400, 401, 403, 404]),
        },
      },
    },
    '/api/upload': {
      post: {
        tags: upload,
        operationId: 'upload',
        summary:
          'Upload files (multipart: `files`, optional `fileInfo`); ' +
          'with `id`, replace that file, or update its info from a JSON body',
        parameters: [{ name: 'id', in: 'query', required: false, schema: { type: 'integer' } }],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: { files: { type: 'array', items: { type: 'string', format: 'binary' } }, fileInfo: str },
              },
            },
            'application/json': { schema: { type: 'object', properties: { fileInfo: { type: 'object' } } } },
          },
        },
        responses: {
          201: { description: 'Created', content: json({ type: 'array', items: ref('MediaFile') }) },
          ...ok(ref('MediaFile'), 'Replaced or updated (with `id`)'),
          ...errors([400, 401, 403, 404]),
        },
      },
    },
    '/api/upload/files': {
      get: {
        tags: upload,
        operationId: 'listFiles',
        responses: { ...ok({ type: 'array', items: ref('MediaFile') }), ...errors([400, 401, 403]) },
      },
    },
    '/api/upload/files/{id}': {
      get: {
        tags: upload,
        operationId: 'getFile',
        parameters: [id()],
        responses: { ...ok(ref('MediaFile')), ...errors([401, 403, 404]) },
      },
      delete: {
        tags: upload,
        operationId: 'deleteFile',
        parameters: [id()],
        responses: { ...ok(ref('MediaFile')), ...errors([401, 403, 404]) },
      },
    },
  };
}
