// Rule 1 of the design: the client learns every path, resource name and operation id from the index.
// This scans src/ outside src/demo/ for string literals that name the demo's resources as paths or
// operation ids (outside `dpx …` command examples in help texts); the names come from the demo's fixture, so the scan follows it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import resources from '../../../fixtures/demo/resources.json' with { type: 'json' };

const root = join(import.meta.dirname, '..', '..', '..');
const src = join(root, 'src');
// Precompiled schema validators are keyed by fixture file name, which holds resource names by nature.
const GENERATED = /\.generated\.ts$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(src, 'demo') ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !GENERATED.test(entry.name) ? [path] : [];
  });
}

function stringLiterals(code: string): string[] {
  const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  return [...withoutComments.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? '',
  );
}

const names = Object.keys(resources);
const operationIds = Object.values(resources).flatMap((resource) =>
  Object.values((resource as { versions: Record<string, { operations: Record<string, unknown> }> }).versions).flatMap(
    (version) => Object.keys(version.operations),
  ),
);
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pathPattern = new RegExp(`(^|[^\\w-])/(${names.map(escapeRegex).join('|')})(?![\\w-])`);
const operationPattern = new RegExp(`(^|[^\\w])(${[...new Set(operationIds)].map(escapeRegex).join('|')})(?![\\w])`);

describe('no API path literals outside src/demo', () => {
  it('derives its names from the demo fixture', () => {
    expect(names.length).toBeGreaterThan(3);
    expect(operationIds.length).toBeGreaterThan(names.length);
    expect(pathPattern.test('/things')).toBe(false);
    expect(pathPattern.test(`/${names[0]}/{id}`)).toBe(true);
    expect(operationPattern.test(operationIds[0]!)).toBe(true);
  });

  it('finds none in any source file', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(src)) {
      for (const literal of stringLiterals(readFileSync(file, 'utf8'))) {
        // Help texts may show a command example (DESIGN.md, rule 1); a path is never allowed.
        const example = /\bdpx /.test(literal);
        if (pathPattern.test(literal) || (!example && operationPattern.test(literal)))
          offenders.push(`${relative(root, file)}: ${JSON.stringify(literal)}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
