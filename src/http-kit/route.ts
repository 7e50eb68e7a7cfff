import type { H3Event } from 'h3';
import type { ServedProject } from './served-project.js';
import type { AccessPolicy, Principal } from './access.js';

/** What a route's handler sees of a request. */
export interface RouteRequest {
  event: H3Event;
  method: string;
  /** Path without the query string or a trailing slash, as sent (case kept). */
  path: string;
  rawQuery: string;
  /** The parsed JSON or urlencoded body (undefined for other content types, whose stream is left unread). */
  body: unknown;
  project: ServedProject;
  access: AccessPolicy;
  /** Authenticates the caller once per request. */
  principal(): Promise<Principal>;
  /** The path's parameters (`:id`, and `_` for a trailing `**`) as sent: case kept, not URL-decoded. */
  params: Record<string, string>;
  /** The server refuses writes (`folio serve --read-only`). */
  readOnly?: boolean;
}

/** Answers a request: what h3 sends (use the helpers of respond.ts), or throws a FolioError. */
export type RouteHandler = (req: RouteRequest) => unknown;

/** `GET` routes answer `HEAD` too; `*` takes every method the path has no route for (instead of a 405). */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | '*';

/** One route, as data: the router knows it without loading its handler. */
export interface Route<K extends string = string> {
  method: RouteMethod;
  /** A path pattern of h3's router (`/api/users/:id`, `/uploads/**`), written in lower case but for its params. */
  path: string;
  /** `false`: a `GET` route that does not answer `HEAD` (an event stream). */
  head?: false;
  /** The handler's name in what the module's `load()` returns. */
  handler: K;
  /**
   * The action the caller must hold (`plugin::upload.content-api.find`), checked after the method and before the
   * handler: a 403 otherwise. Content routes, whose action names the content-type, check theirs in the handler.
   */
  action?: string;
  /**
   * Paths are matched lower-cased, as Strapi's routes are (`/API/Users` is `/api/users`); a route that sets this
   * compares its fixed segments as written (the content API's `/api`, stored files, the live events stream, the API
   * documentation).
   */
  exactCase?: boolean;
}

/**
 * A module's routes: the data, and the handlers loaded by the first request for one of them, so that a module's
 * dependencies (busboy, the OpenAPI generator...) stay off the start.
 */
export interface RouteModule<K extends string = string> {
  routes: readonly Route<K>[];
  load(): Promise<Record<K, RouteHandler>>;
  /** Asked on each request: while it answers false the module has no routes (its paths are a 404). */
  enabled?(): boolean;
}

/** Declares a module's routes with its handler names checked against what `load` returns. */
export const defineRoutes = <K extends string>(module: RouteModule<K>): RouteModule => module;
