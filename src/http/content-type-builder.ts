import type { H3Event } from 'h3';
import { findComponent, findContentType, listComponents, listContentTypes } from '../schema/builder-view.js';
import { sendJson } from '../http-kit/respond.js';
import type { RouteHandler } from '../http-kit/route.js';

const KINDS = ['singleType', 'collectionType'];

/** A path segment URL-decoded, or undefined when it is malformed. */
function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** A missing content-type or component: the controller's own body (`{"error": …}`), not the envelope. */
const missing = (event: H3Event, what: string) => sendJson(event, 404, { error: `${what}.notFound` });

/**
 * `GET /api/content-type-builder/content-types[/:uid]` and `…/components[/:uid]`: the model, read-only.
 * Errors are the controller's own bodies (`{"error": …}`), not the envelope, as Strapi answers them.
 */
export const contentTypeBuilderHandlers: Record<
  'contentTypes' | 'contentType' | 'components' | 'component',
  RouteHandler
> = {
  contentTypes({ event, rawQuery, project }) {
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
      data: listContentTypes(project.schemas, (kind as 'singleType' | 'collectionType' | undefined) ?? undefined),
    });
  },
  contentType({ event, params, project }) {
    const uid = decode(params.uid);
    const found = uid === undefined ? undefined : findContentType(project.schemas, uid);
    return found ? sendJson(event, 200, { data: found }) : missing(event, 'contentType');
  },
  components: ({ event, project }) => sendJson(event, 200, { data: listComponents(project.schemas) }),
  component({ event, params, project }) {
    const uid = decode(params.uid);
    const found = uid === undefined ? undefined : findComponent(project.schemas, uid);
    return found ? sendJson(event, 200, { data: found }) : missing(event, 'component');
  },
};
