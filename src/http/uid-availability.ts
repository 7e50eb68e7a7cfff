import { forbidden, validationError } from '../errors.js';
import { freeUid, generateUid, isUidAvailable, type UidPlace } from '../documents/uid-values.js';
import type { RouteHandler, RouteRequest } from '../http-kit/route.js';
import { sendJson } from '../http-kit/respond.js';

/** Strapi's default pattern of a uid, when its attribute names no `regex`. */
const UID_PATTERN = '/^[A-Za-z0-9-_.~]*$/';

type Issue = { path: string[]; message: string };

/** A failed body check as Strapi's content manager words it (zod): the first issue is the message. */
const invalid = (issues: Issue[]) =>
  validationError(issues[0].message, {
    errors: issues.map((i) => ({ path: i.path, message: i.message, name: 'ValidationError' })),
  });

const expected = (body: Record<string, unknown>, key: string, type: 'string' | 'object'): Issue | undefined => {
  const v = body[key];
  const got = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
  if (got === type) return undefined;
  return { path: [key], message: `Invalid input: expected ${type}, received ${got}` };
};

/**
 * The type and uid field a request names, checked as Strapi checks them (body, then the field), once the caller
 * is known to write the type: creating or updating it is what a uid is asked for. `extra` checks the rest.
 */
async function placeOf(
  req: RouteRequest,
  extra: (body: Record<string, unknown>, at?: UidPlace) => Issue[],
): Promise<{ at: UidPlace; body: Record<string, unknown> }> {
  const body = (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Record<
    string,
    unknown
  >;
  const issues = [expected(body, 'contentTypeUID', 'string'), expected(body, 'field', 'string')].filter(
    (i): i is Issue => i !== undefined,
  );
  const ct = typeof body.contentTypeUID === 'string' ? req.project.schemas.find(body.contentTypeUID) : undefined;
  const principal = await req.principal();
  const uid = ct?.uid ?? String(body.contentTypeUID);
  if (!req.access.can(principal, `${uid}.create`) && !req.access.can(principal, `${uid}.update`)) throw forbidden();
  issues.push(...extra(body));
  if (issues.length) throw invalid(issues);
  if (!ct || ct.uid !== body.contentTypeUID) throw validationError('ContentType not found');
  const field = String(body.field);
  if (ct.attributes[field]?.type !== 'uid') throw validationError(`${field} must be a valid \`uid\` attribute`);
  const locale = new URLSearchParams(req.rawQuery).get('locale') ?? undefined;
  const documentId = typeof body.documentId === 'string' ? body.documentId : undefined;
  await req.project.documents.unique.ready(ct);
  return { at: { ct, field, locale: req.project.documents.localeFor(ct, locale), documentId }, body };
}

/**
 * Folio's `POST /_folio/uid/check-availability` and `POST /_folio/uid/generate`: Strapi's content-manager routes
 * of the same names (same bodies and answers), for callers who may create or update the type. A value is free
 * when no other document's version of the locale holds it (`documentId` in the body names the document asking).
 */
export const uidHandlers: Record<'checkAvailability' | 'generate', RouteHandler> = {
  async checkAvailability(req) {
    const { at, body } = await placeOf(req, (b) => {
      const issue = expected(b, 'value', 'string');
      if (issue) return [issue];
      const ct = typeof b.contentTypeUID === 'string' ? req.project.schemas.find(b.contentTypeUID) : undefined;
      const regex = (ct?.attributes[String(b.field)] as { regex?: string } | undefined)?.regex;
      const ok =
        b.value === '' || (regex ? safeTest(regex, String(b.value)) : /^[A-Za-z0-9-_.~]*$/.test(String(b.value)));
      return ok
        ? []
        : [{ path: ['value'], message: `Must match the custom regex or the default one "${UID_PATTERN}"` }];
    });
    const value = String(body.value);
    const unique = req.project.documents.unique;
    const isAvailable = isUidAvailable(unique, at, value);
    return sendJson(req.event, 200, { isAvailable, suggestion: isAvailable ? null : freeUid(unique, at, value) });
  },

  async generate(req) {
    const { at, body } = await placeOf(req, (b) => {
      const issue = expected(b, 'data', 'object');
      return issue ? [issue] : [];
    });
    return sendJson(req.event, 200, {
      data: generateUid(req.project.documents.unique, at, body.data as Record<string, unknown>),
    });
  },
};

/** A schema's own regex on a value of bounded length (the body limit bounds it; uids are at most 256 long). */
function safeTest(regex: string, value: string): boolean {
  if (value.length > 256) return false;
  try {
    return new RegExp(regex).test(value);
  } catch {
    return false;
  }
}
