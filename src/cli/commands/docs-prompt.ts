import type { ContentType } from '../../schema/types.js';

/** On a terminal, `docs create` without --data asks for each field (empty answers are left out). */
export async function promptData(ct: ContentType): Promise<Record<string, unknown>> {
  const { default: inquirer } = await import('inquirer');
  const data: Record<string, unknown> = {};
  for (const [name, attr] of Object.entries(ct.attributes)) {
    if (
      attr.private ||
      attr.type === 'password' ||
      attr.type === 'json' ||
      attr.type === 'blocks' ||
      attr.type === 'dynamiczone' ||
      attr.type === 'component' ||
      attr.type === 'media'
    )
      continue;
    if (attr.type === 'relation' && attr.mappedBy) continue;
    const label = `${name}${'required' in attr && attr.required ? ' (required)' : ''}`;
    let question: Record<string, unknown>;
    if (attr.type === 'boolean') question = { type: 'confirm', message: label, default: attr.default === true };
    else if (attr.type === 'enumeration')
      question = { type: 'list', message: label, choices: ['', ...(attr.enum ?? [])] };
    else if (attr.type === 'relation')
      question = { type: 'input', message: `${label}: documentId(s) of ${attr.target}, comma-separated` };
    else question = { type: 'input', message: `${label} (${attr.type})` };
    const { value } = (await inquirer.prompt([{ name: 'value', ...question } as never])) as { value: unknown };
    if (value === '' || value === undefined) continue;
    if (attr.type === 'relation') {
      const ids = String(value)
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      data[name] = ['oneToMany', 'manyToMany'].includes(attr.relation) ? ids : ids[0];
    } else if (
      ['integer', 'float', 'decimal'].includes(attr.type) &&
      typeof value === 'string' &&
      value.trim() !== '' &&
      Number.isFinite(Number(value))
    ) {
      data[name] = Number(value);
    } else data[name] = value;
  }
  return data;
}
