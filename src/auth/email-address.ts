/** The longest e-mail address there can be (RFC 5321: a path of 256 octets, less its angle brackets). */
export const EMAIL_MAX_LENGTH = 254;

/**
 * The e-mail shape users-permissions accepts (registration, the users routes, the e-mail flows): one `@`, no
 * white space, and a dot inside the domain. Checked by hand in one pass over at most 254 characters: a regex
 * for this shape backtracks quadratically on a long run of dots.
 */
export function isEmail(value: string): boolean {
  if (value.length > EMAIL_MAX_LENGTH || /\s/.test(value)) return false;
  const at = value.indexOf('@');
  if (at < 1 || at !== value.lastIndexOf('@')) return false;
  const domain = value.slice(at + 1);
  const dot = domain.indexOf('.', 1);
  return dot !== -1 && dot < domain.length - 1;
}
