import { createRouter, eventHandler, type H3Event, type RouterMethod } from 'h3';
import { forbidden, notFound } from '../errors.js';
import { methodNotAllowed } from '../http-kit/respond.js';
import type { Route, RouteHandler, RouteModule, RouteRequest } from '../http-kit/route.js';

/** A module's routes, ready to answer: `undefined` when none of them has the request's path. */
export type ModuleRouter = (req: Omit<RouteRequest, 'params'>) => Promise<{ answer: unknown } | undefined>;

/** What the router is handed: the path to match, and the request its handlers answer. */
interface Routing {
  path: string;
  method: string;
  context: { request?: Omit<RouteRequest, 'params'>; matchedRoute?: { path: string } };
}

/**
 * One h3 router over a module's routes. A path with routes answers the other methods with a 405 and its `Allow`
 * (unless a `*` route takes them); the handlers are loaded by the first request that reaches one of them.
 */
export function moduleRouter(module: RouteModule): ModuleRouter {
  const router = createRouter();
  let loaded: Promise<Record<string, RouteHandler>> | undefined;
  const handlers = () => {
    if (!loaded) {
      loaded = module.load();
      // A module that failed to load is tried again by the next request, rather than failing for good.
      loaded.catch(() => {
        loaded = undefined;
      });
    }
    return loaded;
  };

  const byPath = new Map<string, Route[]>();
  for (const route of module.routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  for (const [path, routes] of byPath) {
    for (const route of routes) {
      const methods: RouterMethod[] | 'all' =
        route.method === '*'
          ? 'all'
          : route.method === 'GET' && route.head !== false
            ? ['get', 'head']
            : [lower(route.method)];
      const answer = eventHandler(async (e) => {
        const req = requestOf(e as unknown as Routing, route);
        if (route.action && !req.access.can(await req.principal(), route.action)) throw forbidden();
        return (await handlers())[route.handler](req);
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
      eventHandler((e) => methodNotAllowed(requestOf(e as unknown as Routing, routes[0]).event, allow)),
    );
  }

  return async (request) => {
    // The router matches the path lower-cased; each handler gets the request with the path as sent.
    const routing: Routing = { path: request.path.toLowerCase(), method: request.method, context: { request } };
    const answer = await router.handler(routing as unknown as H3Event);
    return routing.context.matchedRoute ? { answer } : undefined;
  };
}

const lower = (method: Exclude<Route['method'], '*'>) => method.toLowerCase() as RouterMethod;

/** The request for a matched route: its params taken from the path as sent; a path of another case is a 404. */
function requestOf(routing: Routing, route: Route): RouteRequest {
  const request = routing.context.request!;
  const pattern = routing.context.matchedRoute!.path.split('/');
  const sent = request.path.split('/');
  const params: Record<string, string> = {};
  pattern.forEach((part, i) => {
    if (part.startsWith(':')) params[part.slice(1)] = sent[i];
    else if (part.startsWith('**')) params[part.slice(3) || '_'] = sent.slice(i).join('/');
    else if (route.exactCase && part !== sent[i]) throw notFound();
  });
  return { ...request, params };
}
