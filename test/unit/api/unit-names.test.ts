// Units by name, and a count row's numbers: which units a text names, and when other and "changed while
// counting" can be believed.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import { rowCounts } from '../../../src/api/fanout/count-cells.js';
import { UnitDirectory } from '../../../src/api/fanout/unit-names.js';
import type { OrgUnit } from '../../../src/api/fanout/units.js';

const unit = (id: string, name: string, parent?: string): OrgUnit => ({
  id,
  name,
  detail: '',
  depth: 0,
  children: 0,
  ...(parent ? { parent } : {}),
});
const units = [
  unit('root', 'Global'),
  unit('acme', 'Acme Energy', 'root'),
  unit('acme-eu', 'EU', 'acme'),
  unit('acme-eu-waw', 'Warsaw', 'acme-eu'),
  unit('duff', 'Duff Corp', 'root'),
  unit('duff-eu', 'EU', 'duff'),
  unit('duff-waw', 'Warsaw', 'duff'),
  unit('loop-a', 'Loop A', 'loop-b'),
  unit('loop-b', 'Loop B', 'loop-a'),
];
const directory = new UnitDirectory(units);

describe('UnitDirectory', () => {
  it('labels a unit by its name where it is the only one so named, else by the shortest end of its path no other shares', () => {
    expect(directory.label('acme')).toBe('Acme Energy');
    expect(directory.label('acme-eu-waw')).toBe('EU / Warsaw');
    expect(directory.label('duff-waw')).toBe('Duff Corp / Warsaw');
    expect(directory.label('acme-eu')).toBe('Acme Energy / EU');
    expect(directory.label('nobody')).toBe('nobody');
  });

  it('gives each unit its path from the root, its own name last; a cycle ends a path', () => {
    expect(directory.path('acme-eu-waw')).toEqual(['Global', 'Acme Energy', 'EU', 'Warsaw']);
    expect(directory.path('root')).toEqual(['Global']);
    expect(directory.path('loop-a')).toEqual(['Loop B', 'Loop A']);
    expect(directory.path('unknown-id')).toEqual(['unknown-id']);
  });

  it('finds a unit by id, by name (any case), or by the last names of its path (/ or ›)', () => {
    expect(directory.find('ACME').map((u) => u.id)).toEqual(['acme']);
    expect(directory.find('acme energy').map((u) => u.id)).toEqual(['acme']);
    expect(directory.find('Acme Energy/EU').map((u) => u.id)).toEqual(['acme-eu']);
    expect(directory.find(' Duff Corp › EU ').map((u) => u.id)).toEqual(['duff-eu']);
    expect(directory.find('Global/Duff Corp/Warsaw').map((u) => u.id)).toEqual(['duff-waw']);
    expect(directory.find('EU').map((u) => u.id)).toEqual(['acme-eu', 'duff-eu']);
    expect(directory.find('Nowhere')).toEqual([]);
    expect(directory.find('Nowhere/EU')).toEqual([]);
  });

  it('resolves one unit; several are a usage error listing each with its path and id', () => {
    expect(directory.resolve('Acme Energy/EU/Warsaw')?.id).toBe('acme-eu-waw');
    expect(directory.resolve('Nowhere')).toBeUndefined();
    let thrown: unknown;
    try {
      directory.resolve('Warsaw');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as UsageError).message).toBe('--ou Warsaw names 2 units');
    expect((thrown as UsageError).details).toEqual([
      'Global / Acme Energy / EU / Warsaw  acme-eu-waw',
      'Global / Duff Corp / Warsaw  duff-waw',
    ]);
    expect((thrown as UsageError).exitCode).toBe(2);
  });

  it('knows the one root as the whole tree, and the unit a record names', () => {
    const tree = new UnitDirectory(units.slice(0, 7));
    expect(tree.coversAll('root')).toBe(true);
    expect(tree.coversAll('acme')).toBe(false);
    expect(directory.coversAll('root')).toBe(false);
    expect(tree.unitOfRecord({ id: 't1', unit_id: 'acme-eu' })?.id).toBe('acme-eu');
    expect(tree.unitOfRecord({ id: 'acme', parent_id: 'root' })?.id).toBe('acme');
    expect(tree.unitOfRecord({ id: 't2', from: 'duff', to: 'acme-eu' }, 'acme')?.id).toBe('acme-eu');
    expect(tree.unitOfRecord({ id: 't3', name: 'none' })).toBeUndefined();
  });
});

describe('rowCounts', () => {
  it('other is the total less the columns; the total is never their sum', () => {
    expect(rowCounts({ count: 10 }, [{ count: 3 }, { count: 4 }], true)).toEqual({
      counts: [3, 4],
      total: 10,
      other: 3,
      counted: false,
      changed: false,
    });
    expect(rowCounts({ count: 7 }, [{ count: 3 }, { count: 4 }], true).other).toBe(0);
  });

  it('a cell above the total, or columns past it, is changed while counting, with no other', () => {
    for (const row of [
      rowCounts({ count: 5 }, [{ count: 6 }], true),
      rowCounts({ count: 5 }, [{ count: 3 }, { count: 3 }], true),
    ]) {
      expect(row.changed).toBe(true);
      expect(row.other).toBeUndefined();
      expect(row.total).toBe(5);
    }
  });

  it('a failed count leaves other out and names the error; counted numbers mark the row', () => {
    const failed = rowCounts({ count: 5 }, [{ error: new UsageError('no', 'hint') }, { count: 1 }], true);
    expect(failed.other).toBeUndefined();
    expect(failed.error?.message).toBe('no');
    expect(rowCounts({ count: 4, counted: true }, [{ count: 4, counted: true }], true).counted).toBe(true);
    expect(rowCounts({ count: 4 }, [], false).other).toBeUndefined();
  });
});
