// What one operation needs, as text for a terminal or a pipe: `dpx call R OP --help` and
// `dpx operations R OP` print it.
import { findResource, type Catalog } from '../../api/hal/catalog.js';
import { FILTER_NAMES, FILTER_OPERATORS, type OperationDescription } from '../../api/operations/describe.js';
import { visible } from '../../text/cells.js';

/** Words filled into lines of at most `width` columns, each line starting with `indent`. */
function wrapWords(text: string, indent: string, width: number): string[] {
  const lines: string[] = [];
  let line = indent;
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > width && line.trim() !== '') {
      lines.push(line.trimEnd());
      line = `${indent}  `;
    }
    line += `${word} `;
  }
  if (line.trim() !== '') lines.push(line.trimEnd());
  return lines;
}

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The description as text for a terminal or a pipe, `width` columns wide at most where it can wrap. */
export function operationHelpText(description: OperationDescription, catalog?: Catalog): string {
  const { resource, version, versions, operation, variables, schema } = description;
  const lines: string[] = [];
  lines.push(`${operation.method} ${operation.href}`);
  const onlyThis = versions.length === 1 && catalog && (findResource(catalog, resource)?.versions.length ?? 0) > 1;
  const which =
    versions.length > 1
      ? ` (the versions that have it: ${versions.join(', ')})`
      : onlyThis
        ? ' (only this version has it)'
        : '';
  lines.push(`${resource} ${operation.id} · version ${version}${which}`);
  lines.push('');
  if (variables.length === 0) lines.push('Variables: none (the href takes no template variables)');
  else {
    lines.push('Variables:');
    const width = Math.min(24, Math.max(...variables.map((variable) => variable.name.length)) + 2);
    for (const variable of variables) {
      const tag = variable.kind === 'path' ? 'path, required' : 'query, optional';
      lines.push(`  ${variable.name.padEnd(width)}${tag}: ${variable.about}`);
      if (FILTER_NAMES.includes(variable.name.toLowerCase())) {
        const pad = `  ${''.padEnd(width)}`;
        lines.push(`${pad}operators: ${FILTER_OPERATORS.join(' ')}`);
        const fields = variable.filterFields ?? [];
        if (fields.length > 0)
          lines.push(
            ...wrapWords(
              `fields of ${resource} ${version}: ${fields.map((field) => field.field).join(', ')}`,
              pad,
              100,
            ),
          );
        for (const field of fields.filter((candidate) => candidate.values))
          lines.push(`${pad}  ${field.field}: ${field.values!.map(valueText).join(' | ')}`);
      }
    }
  }
  lines.push('');
  if (!description.hasBody) lines.push(`Body: none (${operation.method} sends no body)`);
  else if (!schema) {
    lines.push('Body: JSON; no schema is known for it, so dpx cannot list its fields.');
    lines.push(`  The index gives only: ${operation.method} ${operation.href}. A profile's "schemaDir" may hold`);
    lines.push(`  ${resource}.${version}.${operation.id}.json (a JSON schema) to describe and check it.`);
  } else {
    lines.push(
      `Body: JSON, checked against ${schema.source === 'built-in' ? 'the schema dpx ships' : schema.source}${schema.title ? ` (${schema.title})` : ''}:`,
    );
    const width = Math.min(28, Math.max(...schema.fields.map((field) => field.name.length)) + 2);
    for (const field of schema.fields) {
      const facts = [field.required ? 'required' : 'optional', field.type, ...field.limits];
      lines.push(`  ${field.name.padEnd(width)}${facts.join(', ')}`);
      const pad = ''.padEnd(width + 2);
      if (field.allowed) lines.push(`${pad}one of: ${field.allowed.map(valueText).join(', ')}`);
      if (field.default !== undefined) lines.push(`${pad}default: ${valueText(field.default)}`);
      if (field.description) lines.push(`${pad}${field.description}`);
      if (field.refers) lines.push(`${pad}the id of a ${field.refers} record (dpx list ${field.refers})`);
      if (field.example !== undefined && !field.allowed) lines.push(`${pad}e.g. ${valueText(field.example)}`);
    }
    if (schema.fields.length === 0) lines.push('  (the schema names no fields)');
    lines.push('');
    lines.push(
      `Body to start from (dpx call ${resource} ${operation.id} --edit opens it in $EDITOR; what stays commented out is not sent):`,
    );
    for (const line of schema.template.split('\n')) lines.push(`  ${visible(line)}`);
  }
  lines.push('');
  lines.push('Example:');
  lines.push(`  ${description.example}`);
  return `${lines.join('\n')}\n`;
}
