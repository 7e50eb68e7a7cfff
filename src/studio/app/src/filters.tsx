import { useState } from 'preact/hooks';
import { labelOf } from './labels';
import type { ContentType } from './model';

/** One condition of the list: an attribute, a Strapi filter operator, and a value. */
export type Filter = [field: string, operator: string, value: string];

const TEXT_OPS = ['$containsi', '$eq', '$ne', '$startsWith', '$null', '$notNull'];
const ORDERED_OPS = ['$eq', '$ne', '$lt', '$lte', '$gt', '$gte', '$null', '$notNull'];
const EQUAL_OPS = ['$eq', '$ne', '$null', '$notNull'];
const OP_NAMES: Record<string, string> = {
  $containsi: 'contains',
  $eq: 'is',
  $ne: 'is not',
  $startsWith: 'starts with',
  $lt: 'is less than',
  $lte: 'is at most',
  $gt: 'is more than',
  $gte: 'is at least',
  $null: 'is empty',
  $notNull: 'is not empty',
};
const FILTERABLE: Record<string, string[]> = {
  string: TEXT_OPS,
  text: TEXT_OPS,
  email: TEXT_OPS,
  uid: TEXT_OPS,
  richtext: TEXT_OPS,
  integer: ORDERED_OPS,
  biginteger: ORDERED_OPS,
  float: ORDERED_OPS,
  decimal: ORDERED_OPS,
  date: ORDERED_OPS,
  datetime: ORDERED_OPS,
  time: ORDERED_OPS,
  boolean: EQUAL_OPS,
  enumeration: EQUAL_OPS,
};
const NO_VALUE = new Set(['$null', '$notNull']);

/** The filters of the address's `f` parameter (a JSON list), or none when it is not one. */
export function parseFilters(raw: string | null): Filter[] {
  try {
    const list: unknown = JSON.parse(raw ?? '[]');
    return Array.isArray(list)
      ? list.filter((f): f is Filter => Array.isArray(f) && f.length === 3 && f.every((x) => typeof x === 'string'))
      : [];
  } catch {
    return [];
  }
}

/** The filters as the REST API's `filters[field][$op]=value` parameters. */
export function filterParams(filters: Filter[]): Record<string, string> {
  const out: Record<string, string> = {};
  filters.forEach(([field, op, value], i) => {
    // Each condition in its own `$and` entry, so two on one field both apply.
    out[`filters[$and][${i}][${field}][${op}]`] = NO_VALUE.has(op) ? 'true' : value;
  });
  return out;
}

/** The list's filters on scalar attributes: the active ones (each removable) and a form to add one. */
export function FilterBar(props: { type: ContentType; filters: Filter[]; onChange(filters: Filter[]): void }) {
  const { type, filters, onChange } = props;
  const fields = Object.entries(type.attributes).filter(([, a]) => FILTERABLE[a.type] && !a.private);
  const [field, setField] = useState(fields[0]?.[0] ?? '');
  const attr = type.attributes[field];
  const ops = attr ? FILTERABLE[attr.type] : [];
  const [op, setOp] = useState(ops[0] ?? '$eq');
  const [value, setValue] = useState('');
  if (!fields.length) return null;
  const operator = ops.includes(op) ? op : ops[0];
  const inputType = ['integer', 'float', 'decimal'].includes(attr?.type ?? '')
    ? 'number'
    : attr?.type === 'date'
      ? 'date'
      : 'text';
  const valueInput =
    attr?.type === 'boolean' || attr?.type === 'enumeration' ? (
      <select id="filter-value" value={value} onChange={(e) => setValue(e.currentTarget.value)}>
        <option value="">(choose)</option>
        {(attr.type === 'boolean' ? ['true', 'false'] : (attr.enum ?? [])).map((v) => (
          <option value={v}>{v}</option>
        ))}
      </select>
    ) : (
      <input
        id="filter-value"
        // Preact's input props are split by type; this one input takes several, chosen at run time.
        type={inputType as 'text'}
        value={value}
        onInput={(e) => setValue(e.currentTarget.value)}
      />
    );
  const nameOf = (name: string) => (type.attributes[name] ? labelOf(name, type.attributes[name]) : name);
  return (
    <div class="filters">
      {filters.length > 0 && (
        <ul class="active-filters" aria-label="Active filters">
          {filters.map((f, i) => {
            const text = `${nameOf(f[0])} ${OP_NAMES[f[1]] ?? f[1]}${NO_VALUE.has(f[1]) ? '' : ` ${f[2]}`}`;
            return (
              <li>
                {text}{' '}
                <button type="button" onClick={() => onChange(filters.filter((_, j) => j !== i))}>
                  Remove<span class="visually-hidden"> filter {text}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <form
        class="add-filter"
        aria-label="Add a filter"
        onSubmit={(e) => {
          e.preventDefault();
          onChange([...filters, [field, operator, value]]);
          setValue('');
        }}
      >
        <label for="filter-field">Filter on</label>
        <select id="filter-field" value={field} onChange={(e) => setField(e.currentTarget.value)}>
          {fields.map(([name]) => (
            <option value={name}>{nameOf(name)}</option>
          ))}
        </select>
        <label for="filter-op" class="visually-hidden">
          Condition
        </label>
        <select id="filter-op" value={operator} onChange={(e) => setOp(e.currentTarget.value)}>
          {ops.map((o) => (
            <option value={o}>{OP_NAMES[o]}</option>
          ))}
        </select>
        {!NO_VALUE.has(operator) && (
          <>
            <label for="filter-value" class="visually-hidden">
              Value
            </label>
            {valueInput}
          </>
        )}
        <button type="submit">Add filter</button>
      </form>
    </div>
  );
}
