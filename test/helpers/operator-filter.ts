// Filters as a server shaped like the real service reads them: a JSON object of declared fields, each an
// object of operators (`{"status": {"$eq": "failed"}}`, `$in`, `$contains`, `$gt`…). Anything else is
// refused with a numeric error code, as the real service's errors carry numbers.

export const FILTER_CODES = {
  filterNotJson: 40001,
  operatorRequired: 40010,
  unknownOperator: 40011,
  fieldNotFilterable: 40013,
} as const;

const OPERATORS = new Set(['$eq', '$neq', '$in', '$contains', '$begins_with', '$gt', '$gte', '$lt', '$lte']);

export type OperatorFilter = { test: (record: Record<string, unknown>) => boolean } | { error: string; code: number };

/** The filter's test of a record, or why it is refused; no filter (null or empty) lets every record through. */
export function parseOperatorFilter(text: string | null, filterable: readonly string[]): OperatorFilter {
  if (text === null || text === '') return { test: () => true };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: 'The filter is not valid JSON', code: FILTER_CODES.filterNotJson };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { error: 'The filter must be a JSON object', code: FILTER_CODES.filterNotJson };
  const tests: ((record: Record<string, unknown>) => boolean)[] = [];
  for (const [field, condition] of Object.entries(parsed)) {
    if (!filterable.includes(field))
      return { error: `Field '${field}' cannot be used in a filter`, code: FILTER_CODES.fieldNotFilterable };
    if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) {
      return {
        error: `The condition on '${field}' must be an operator object such as {"$eq": value}`,
        code: FILTER_CODES.operatorRequired,
      };
    }
    for (const [operator, operand] of Object.entries(condition)) {
      if (!OPERATORS.has(operator))
        return { error: `Unknown operator '${operator}'`, code: FILTER_CODES.unknownOperator };
      tests.push((record) => compare(valueAt(record, field), operator, operand));
    }
  }
  return { test: (record) => tests.every((test) => test(record)) };
}

function compare(value: unknown, operator: string, operand: unknown): boolean {
  switch (operator) {
    case '$eq':
      return value === operand;
    case '$neq':
      return value !== operand;
    case '$in':
      return Array.isArray(operand) && operand.includes(value);
    case '$contains':
      return typeof value === 'string' && typeof operand === 'string' && value.includes(operand);
    case '$begins_with':
      return typeof value === 'string' && typeof operand === 'string' && value.startsWith(operand);
    default: {
      if (typeof value !== typeof operand || (typeof value !== 'string' && typeof value !== 'number')) return false;
      const [a, b] = [value as string | number, operand as string | number];
      return operator === '$gt' ? a > b : operator === '$gte' ? a >= b : operator === '$lt' ? a < b : a <= b;
    }
  }
}

/** A dotted path's value; a key that itself holds the dot wins. */
function valueAt(record: Record<string, unknown>, path: string): unknown {
  if (path in record) return record[path];
  return path
    .split('.')
    .reduce<unknown>(
      (value, part) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined),
      record,
    );
}
