import type { FieldDef, VersionDef } from './catalog.js';
import { DemoError } from './errors.js';
import type { StoredRecord } from './store.js';

export const FILTER_OPERATORS = [
  '$eq',
  '$neq',
  '$in',
  '$contains',
  '$begins_with',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
] as const;
type Operator = (typeof FILTER_OPERATORS)[number];

const ORDERED_TYPES = new Set(['string', 'integer', 'number', 'timestamp']);
const TEXT_TYPES = new Set(['string', 'string[]']);

function invalid(message: string): DemoError {
  return new DemoError(400, 'invalid_filter', message);
}

function isOperator(name: string): name is Operator {
  return (FILTER_OPERATORS as readonly string[]).includes(name);
}

/** A filter operand converted to the stored representation (timestamps as epoch ms). */
function operand(fieldName: string, field: FieldDef, operator: Operator, raw: unknown): unknown {
  if (raw === null) {
    if ((operator === '$eq' || operator === '$neq') && field.nullable) return null;
    throw invalid(
      `Filter ${operator} on field '${fieldName}' compares with null, which only $eq and $neq on nullable fields accept`,
    );
  }
  const expected =
    field.type === 'string[]' ? 'string' : field.type === 'timestamp' ? 'string (ISO 8601 timestamp)' : field.type;
  switch (field.type) {
    case 'timestamp': {
      const time = typeof raw === 'string' ? Date.parse(raw) : NaN;
      if (Number.isNaN(time))
        throw invalid(
          `Filter ${operator} on field '${fieldName}' needs an ISO 8601 timestamp, got ${JSON.stringify(raw)}`,
        );
      return time;
    }
    case 'integer':
    case 'number':
      if (typeof raw !== 'number')
        throw invalid(`Filter ${operator} on field '${fieldName}' needs a number, got ${JSON.stringify(raw)}`);
      return raw;
    case 'boolean':
      if (typeof raw !== 'boolean')
        throw invalid(`Filter ${operator} on field '${fieldName}' needs true or false, got ${JSON.stringify(raw)}`);
      return raw;
    default:
      if (typeof raw !== 'string')
        throw invalid(`Filter ${operator} on field '${fieldName}' needs a ${expected}, got ${JSON.stringify(raw)}`);
      return raw;
  }
}

type Test = (value: unknown) => boolean;

function compare(a: unknown, b: unknown): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

function condition(fieldName: string, field: FieldDef, operator: Operator, raw: unknown): Test {
  if ((operator === '$contains' || operator === '$begins_with') && !TEXT_TYPES.has(field.type)) {
    throw invalid(`Filter operator ${operator} does not apply to ${field.type} field '${fieldName}'`);
  }
  if (['$gt', '$gte', '$lt', '$lte'].includes(operator) && !ORDERED_TYPES.has(field.type)) {
    throw invalid(`Filter operator ${operator} does not apply to ${field.type} field '${fieldName}'`);
  }
  if (operator === '$in') {
    if (!Array.isArray(raw))
      throw invalid(`Filter $in on field '${fieldName}' needs an array, got ${JSON.stringify(raw)}`);
    const options = raw.map((item) => operand(fieldName, field, '$eq', item));
    return field.type === 'string[]'
      ? (value) => Array.isArray(value) && value.some((v) => options.includes(v))
      : (value) => options.includes(value ?? null);
  }
  const wanted = operand(fieldName, field, operator, raw);
  if (field.type === 'string[]') {
    const text = String(wanted).toLowerCase();
    switch (operator) {
      case '$contains':
        return (value) => Array.isArray(value) && value.some((v) => String(v).toLowerCase().includes(text));
      case '$begins_with':
        return (value) => Array.isArray(value) && value.some((v) => String(v).toLowerCase().startsWith(text));
      case '$eq':
        return (value) => Array.isArray(value) && value.includes(wanted);
      case '$neq':
        return (value) => !Array.isArray(value) || !value.includes(wanted);
      default:
        throw invalid(`Filter operator ${operator} does not apply to list field '${fieldName}'`);
    }
  }
  switch (operator) {
    case '$eq':
      return (value) => (value ?? null) === wanted;
    case '$neq':
      return (value) => (value ?? null) !== wanted;
    case '$contains': {
      const text = String(wanted).toLowerCase();
      return (value) => typeof value === 'string' && value.toLowerCase().includes(text);
    }
    case '$begins_with': {
      const text = String(wanted).toLowerCase();
      return (value) => typeof value === 'string' && value.toLowerCase().startsWith(text);
    }
    case '$gt':
      return (value) => (compare(value, wanted) ?? -1) > 0;
    case '$gte':
      return (value) => (compare(value, wanted) ?? -1) >= 0;
    case '$lt':
      return (value) => (compare(value, wanted) ?? 1) < 0;
    case '$lte':
      return (value) => (compare(value, wanted) ?? 1) <= 0;
  }
}

/**
 * Compiles a JSON filter expression against one version's fields into a predicate on stored records.
 * `{"status": {"$in": ["failed"]}, "created_timestamp": {"$gte": "…"}}`; a bare value means $eq;
 * several fields and several operators on one field are ANDed.
 */
export function compileFilter(
  text: string,
  version: VersionDef,
  resourceName: string,
  versionName: string,
): (record: StoredRecord) => boolean {
  let expression: unknown;
  try {
    expression = JSON.parse(text);
  } catch (error) {
    throw invalid(`The filter is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof expression !== 'object' || expression === null || Array.isArray(expression)) {
    throw invalid('The filter must be a JSON object of field names to conditions, e.g. {"status":{"$eq":"failed"}}');
  }
  const tests: { source: string; test: Test }[] = [];
  for (const [fieldName, conditionValue] of Object.entries(expression)) {
    const field = version.fields[fieldName];
    if (!field) {
      throw invalid(
        `Unknown filter field '${fieldName}' for ${resourceName} ${versionName}; known fields: ${Object.keys(version.fields).join(', ')}`,
      );
    }
    const source = field.from ?? fieldName;
    const isConditionObject =
      typeof conditionValue === 'object' && conditionValue !== null && !Array.isArray(conditionValue);
    const entries: [string, unknown][] = isConditionObject ? Object.entries(conditionValue) : [['$eq', conditionValue]];
    if (entries.length === 0) throw invalid(`Filter field '${fieldName}' has no operator`);
    for (const [operator, raw] of entries) {
      if (!isOperator(operator)) {
        throw invalid(
          `Unknown filter operator '${operator}' on field '${fieldName}'; known operators: ${FILTER_OPERATORS.join(' ')}`,
        );
      }
      tests.push({ source, test: condition(fieldName, field, operator, raw) });
    }
  }
  return (record) => tests.every(({ source, test }) => test(record[source]));
}
