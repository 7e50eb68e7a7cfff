import { forbidden, notFound } from '../errors.js';
import { findComponent, findContentType, listComponents, listContentTypes } from '../schema/builder-view.js';
import type { HttpModule } from './app.js';
import { methodNotAllowed, sendJson } from './respond.js';

const PREFIX = '/api/content-type-builder/';
const KINDS = ['singleType', 'collectionType'];

/** The action each read route needs, as Strapi names it (a role or a custom token can be granted them). */
export const CONTENT_TYPE_BUILDER_ACTIONS = {
  contentTypes: 'plugin::content-type-builder.content-types.getContentTypes',
  contentType: 'plugin::content-type-builder.content-types.getContentType',
  components: 'plugin::content-type-builder.components.getComponents',
  component: 'plugin::content-type-builder.components.getComponent',
} as const;

/** A path segment URL-decoded, or undefined when it is malformed. */
function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * `GET /api/content-type-builder/content-types[/:uid]` and `…/components[/:uid]`: the model, read-only.
 * Errors are the controller's own bodies (`{"error": …}`), not the envelope, as Strapi answers them.
 */
export const contentTypeBuilderModule: HttpModule = {
  async handle({ event, method, path, rawQuery, project, access, principal }) {
    if (!path.toLowerCase().startsWith(PREFIX)) return undefined;
    const [collection, uidSegment, ...more] = path.slice(PREFIX.length).split('/');
    const route = collection.toLowerCase();
    if ((route !== 'content-types' && route !== 'components') || more.length) throw notFound();
    if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(event, ['HEAD', 'GET']);
    const one = uidSegment !== undefined;
    const action =
      route === 'content-types'
        ? CONTENT_TYPE_BUILDER_ACTIONS[one ? 'contentType' : 'contentTypes']
        : CONTENT_TYPE_BUILDER_ACTIONS[one ? 'component' : 'components'];
    if (!access.can(await principal(), action)) throw forbidden();
    const schemas = project.schemas;

    if (route === 'content-types' && !one) {
      const kind = new URLSearchParams(rawQuery).get('kind');
      if (kind !== null && !KINDS.includes(kind)) {
        const message = `this must be one of the following values: ${KINDS.join(', ')}`;
        const error = {
          name: 'ValidationError',
          message,
          details: { errors: [{ path: [], message, name: 'ValidationError', value: kind }] },
        };
        return sendJson(event, 400, { error });
      }
      return sendJson(event, 200, {
        data: listContentTypes(schemas, (kind as 'singleType' | 'collectionType' | undefined) ?? undefined),
      });
    }
    if (route === 'components' && !one) return sendJson(event, 200, { data: listComponents(schemas) });

    const uid = decode(uidSegment);
    if (route === 'content-types') {
      const found = uid === undefined ? undefined : findContentType(schemas, uid);
      return found ? sendJson(event, 200, { data: found }) : sendJson(event, 404, { error: 'contentType.notFound' });
    }
    const found = uid === undefined ? undefined : findComponent(schemas, uid);
    return found ? sendJson(event, 200, { data: found }) : sendJson(event, 404, { error: 'component.notFound' });
  },
};
