/** Checks of the names a command creates, so that a typo fails where it is made rather than later. */

const languages = new Intl.DisplayNames('en', { type: 'language', fallback: 'none' });
const regions = new Intl.DisplayNames('en', { type: 'region', fallback: 'none' });
const scripts = new Intl.DisplayNames('en', { type: 'script', fallback: 'none' });

/**
 * Why `code` is not a locale code Folio should add (undefined when it is one): it must be well-formed
 * BCP 47 (Intl.getCanonicalLocales), written in its canonical form (`pt-BR`, not `pt-br`), and its
 * language, script and region must be registered ones (`xx-YY` is well-formed but names nothing).
 */
export function localeCodeProblem(code: string): string | undefined {
  const example = '(BCP 47, e.g. fr, pt-BR, zh-Hans)';
  let canonical: string;
  try {
    [canonical] = Intl.getCanonicalLocales(code);
  } catch {
    return `"${code}" is not a locale code ${example}`;
  }
  if (canonical !== code) return `"${code}" is written "${canonical}" as a locale code`;
  const locale = new Intl.Locale(canonical);
  const known = (names: Intl.DisplayNames, part: string) => {
    try {
      return names.of(part) !== undefined;
    } catch {
      return false;
    }
  };
  // qaa to qtz are BCP 47's private-use languages: valid, and named by the code alone.
  const privateUse = /^q[a-t][a-z]$/.test(locale.language);
  if (!privateUse && !known(languages, locale.language))
    return `"${locale.language}" in "${code}" is not a known language ${example}`;
  if (locale.script && !known(scripts, locale.script))
    return `"${locale.script}" in "${code}" is not a known script ${example}`;
  if (locale.region && !known(regions, locale.region))
    return `"${locale.region}" in "${code}" is not a known region ${example}`;
  return undefined;
}

/**
 * An enumeration value as Strapi's type builder reduces it to check it (`toRegressedEnumValue`: accents
 * dropped, every run of other characters made one "_").
 */
export const regressedEnumValue = (value: string) =>
  value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/**
 * Why enumeration values are refused, as Strapi's builder refuses them: each must reduce to a name that
 * starts with a letter (`1x`, `-` are refused), and no two may reduce to the same one. A single value
 * with spaces is taken for a list typed without commas.
 */
export function enumValuesProblem(values: string[]): string | undefined {
  if (!values.length) return 'An enumeration needs at least one value (--enum draft,review,done)';
  if (values.length === 1 && /\s/.test(values[0]))
    return `"${values[0]}" is one value: separate the values with commas (--enum ${values[0].split(/\s+/).join(',')})`;
  const seen = new Map<string, string>();
  for (const v of values) {
    const r = regressedEnumValue(v);
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(r))
      return `The enumeration value "${v}" must start with a letter (Strapi turns it into the name "${r}")`;
    const other = seen.get(r);
    if (other !== undefined) return `The enumeration values "${other}" and "${v}" are the same name to Strapi ("${r}")`;
    seen.set(r, v);
  }
  return undefined;
}
