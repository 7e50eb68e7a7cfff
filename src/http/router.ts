import { createRouter, eventHandler, type H3Event, type RouterMethod } from 'h3';
import { forbidden, notFound } from '../errors.js';
import { methodNotAllowed } from '../http-kit/respond.js';
import type { Route, RouteHandler, RouteModule, RouteRequest } from '../http-kit/route.js';

/**
 * A module's routes, ready to answer: `undefined` at once when none of them has the request's path, else the
 * answer (a promise of it once the handler is async).
 */
export type ModuleRouter = ((req: RouteRequest, lowerPath: string) => { answer: unknown } | undefined) & {
  /** Whether one of the module's routes may have this (lower-cased) path: false means it has none. */
  mayHave(lowerPath: string): boolean;
  /** The path patterns of its routes. */
  paths: string[];
  /** How many method and path pairs it remembers the answer of. */
  remembered(): number;
};

/** What the router is handed: the path to match, and the request its handlers answer. */
interface Routing {
  path: string;
  method: string;
  context: { request?: RouteRequest; matchedRoute?: { path: string }; picked?: Answer };
}

/** A route's answer to a routed request (its handler, the access check, a 405). */
type Answer = (routing: Routing) => unknown;

/**
 * How many method and path pairs a module remembers the answer of (a documentId is a path of its own), forgotten
 * together past that; a longer path is not remembered, so what a client can make a module hold stays small.
 */
const KNOWN_PATHS = 1024;
const KNOWN_PATH_LENGTH = 200;

/**
 * One h3 router over a module's routes. A path with routes answers the other methods with a 405 and its `Allow`
 * (unless a `*` route takes them); the handlers are loaded by the first request that reaches one of them.
 */
export function moduleRouter(module: RouteModule): ModuleRouter {
  const router = createRouter();
  let loading: Promise<Record<string, RouteHandler>> | undefined;
  let loaded: Record<string, RouteHandler> | undefined;
  const handlers = () => {
    if (!loading) {
      loading = module.load().then((h) => (loaded = h));
      // A module that failed to load is tried again by the next request, rather than failing for good.
      loading.catch(() => {
        loading = undefined;
      });
    }
    return loading;
  };
  const run = (route: Route, req: RouteRequest) =>
    loaded ? loaded[route.handler](req) : handlers().then((h) => h[route.handler](req));
  const checked = async (route: Route, req: RouteRequest) => {
    if (!req.access.can(await req.principal(), route.action!)) throw forbidden();
    return run(route, req);
  };

  const byPath = new Map<string, Route[]>();
  for (const route of module.routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  for (const [path, routes] of byPath) {
    const shape = shapeOf(path, routes[0].exactCase === true);
    for (const route of routes) {
      const methods: RouterMethod[] | 'all' =
        route.method === '*'
          ? 'all'
          : route.method === 'GET' && route.head !== false
            ? ['get', 'head']
            : [lower(route.method)];
      const answer = picking((routing) => {
        const req = requestOf(routing, shape);
        return route.action ? checked(route, req) : run(route, req);
      });
      if (methods === 'all') router.use(path, answer);
      else router.use(path, answer, methods);
    }
    if (routes.some((r) => r.method === '*')) continue;
    const allow = [
      ...new Set(routes.flatMap((r) => (r.method === 'GET' && r.head !== false ? ['HEAD', 'GET'] : [r.method]))),
    ];
    router.use(
      path,
      picking((routing) => methodNotAllowed(requestOf(routing, shape).event, allow)),
    );
  }

  const mayHave = pathsLike([...byPath.keys()]);

  // The answer h3's router picked for a method and path: the routes are fixed, so it picks the same one again.
  const known = new Map<string, Map<string, Answer>>();
  let remembered = 0;
  const route = (request: RouteRequest, path: string) => {
    if (!mayHave(path) || (module.enabled && !module.enabled())) return undefined;
    // The router matches the path lower-cased; each handler gets the request with the path as sent.
    const routing: Routing = { path, method: request.method, context: { request } };
    let paths = known.get(request.method);
    const picked = paths?.get(path);
    if (picked) return { answer: picked(routing) };
    // h3's router answers a miss at once with undefined, and a match with the promise of its handler's answer.
    const answer = router.handler(routing as unknown as H3Event);
    if (!routing.context.matchedRoute) return undefined;
    if (routing.context.picked && path.length <= KNOWN_PATH_LENGTH) {
      if (remembered >= KNOWN_PATHS) {
        known.clear();
        remembered = 0;
        paths = undefined;
      }
      if (!paths) known.set(request.method, (paths = new Map()));
      paths.set(path, routing.context.picked);
      remembered++;
    }
    return { answer };
  };
  return Object.assign(route, { mayHave, paths: [...byPath.keys()], remembered: () => remembered });
}

/**
 * Whether a route of `patterns` may have a (lower-cased) path: a pattern without parameters must be equal to it, one
 * with parameters start with its fixed part. A request is asked of a router only then: the router's misses cost an
 * error object each, on every request to the content API.
 */
export function pathsLike(patterns: string[]): (lowerPath: string) => boolean {
  const exact = new Set<string>();
  const heads: string[] = [];
  const starts: string[] = [];
  for (const path of patterns) {
    const parts = path.split('/');
    const param = parts.findIndex((p) => p.startsWith(':') || p.startsWith('*'));
    if (param === -1) exact.add(path);
    else starts.push(parts.slice(0, param).join('/'));
  }
  for (const start of starts.sort((a, b) => a.length - b.length))
    if (!heads.some((head) => start === head || start.startsWith(`${head}/`))) heads.push(start);
  const under = heads.map((head) => `${head}/`);
  return (path: string) => {
    if (exact.has(path)) return true;
    for (let i = 0; i < heads.length; i++) if (path === heads[i] || path.startsWith(under[i])) return true;
    return false;
  };
}

const lower = (method: Exclude<Route['method'], '*'>) => method.toLowerCase() as RouterMethod;

/** An h3 handler that runs `answer` and tells the routed request it was the one picked. */
const picking = (answer: Answer) =>
  eventHandler((e) => {
    const routing = e as unknown as Routing;
    routing.context.picked = answer;
    return answer(routing);
  });

/** Per segment of a path pattern, up to the last that matters: a param, a fixed part compared as written, or none. */
type PathShape = Array<{ param: string; rest: boolean } | { fixed: string } | undefined>;

function shapeOf(pattern: string, exactCase: boolean): PathShape {
  const shape: PathShape = [];
  pattern.split('/').forEach((part, at) => {
    if (part.startsWith(':')) shape[at] = { param: part.slice(1), rest: false };
    else if (part.startsWith('**')) shape[at] = { param: part.slice(3) || '_', rest: true };
    else if (exactCase) shape[at] = { fixed: part };
  });
  return shape;
}

/**
 * The request for a matched route (each path has its own handlers, so the shape is the matched pattern's): its
 * params taken from the path as sent; an exact-case route sent in another case is a 404. The path is walked
 * segment by segment, without splitting it.
 */
function requestOf(routing: Routing, shape: PathShape): RouteRequest {
  const request = routing.context.request!;
  const sent = request.path;
  const params: Record<string, string> = {};
  // `from`: where segment `at` starts; past the end of the path, there is no such segment.
  for (let at = 0, from = 0; at < shape.length; at++) {
    const beyond = from > sent.length;
    const slash = beyond ? -1 : sent.indexOf('/', from);
    const stop = slash === -1 ? sent.length : slash;
    const part = shape[at];
    if (part && 'fixed' in part) {
      if (beyond || stop - from !== part.fixed.length || !sent.startsWith(part.fixed, from)) throw notFound();
    } else if (part) {
      // A param past the end of the path is left undefined, as the router matched it without one.
      const value = part.rest ? (beyond ? '' : sent.slice(from)) : beyond ? undefined : sent.slice(from, stop);
      params[part.param] = value as string;
    }
    from = slash === -1 ? sent.length + 1 : slash + 1;
  }
  request.params = params;
  return request;
}
