import { describe, expect, it } from 'vitest';
import type { XrayResult } from '../../../src/api/xray/xray.js';
import { xrayDot, xrayTree } from '../../../src/cli/format/xray.js';

// A graph as the core reports it, with names a hostile or careless server could send.
const result: XrayResult = {
  root: 'http://h/a/1',
  nodes: [
    {
      key: 'http://h/a/1',
      resource: 'alphas',
      id: '1',
      label: 'Root "one"\x1b[2J',
      status: 'Failed',
      depth: 0,
      state: 'loaded',
      url: 'http://h/a/1',
    },
    {
      key: 'http://h/b/2',
      resource: 'betas',
      id: '2',
      label: 'two\\path\nnext',
      depth: 1,
      state: 'loaded',
      url: 'http://h/b/2',
    },
    {
      key: 'http://h/c/3',
      resource: 'gammas',
      id: '3',
      label: 'three',
      status: 'running',
      depth: 1,
      state: 'loaded',
      url: 'http://h/c/3',
    },
    {
      key: 'http://h/d/4',
      resource: 'deltas',
      label: 'broken',
      depth: 2,
      state: 'failed',
      error: 'HTTP 500: down',
      url: 'http://h/d/4',
    },
    {
      key: 'http://h/e/5',
      resource: 'events',
      id: '5',
      label: 'login',
      depth: 1,
      state: 'listed',
      url: 'http://h/e/5',
    },
  ],
  edges: [
    { from: 'http://h/a/1', to: 'http://h/b/2', rel: 'beta', direction: 'out', via: '_links.beta', cycle: false },
    { from: 'http://h/a/1', to: 'http://h/c/3', rel: 'gamma', direction: 'out', via: '_links.gamma', cycle: false },
    // b reaches c too, but c sits under the root, where the walk first reached it.
    { from: 'http://h/b/2', to: 'http://h/c/3', rel: 'gamma', direction: 'out', via: '_links.gamma', cycle: false },
    { from: 'http://h/c/3', to: 'http://h/d/4', rel: 'delta', direction: 'out', via: '_links.delta', cycle: false },
    { from: 'http://h/c/3', to: 'http://h/a/1', rel: 'up', direction: 'out', via: '_links.up', cycle: true },
    {
      from: 'http://h/e/5',
      to: 'http://h/a/1',
      rel: 'target',
      direction: 'in',
      via: 'target_type/target_id',
      cycle: false,
    },
  ],
  inbound: [
    {
      candidate: {
        resource: 'events',
        version: 'v1',
        filter: { target_type: 'alpha', target_id: '1' },
        rel: 'target',
        via: 'target_type/target_id',
        idField: 'target_id',
        typeField: 'target_type',
      },
      url: 'http://h/events?q=…',
      total: 12,
      keys: ['http://h/e/5'],
    },
  ],
  timeline: [
    {
      key: 'http://h/e/5',
      resource: 'events',
      at: 0,
      when: '2026-01-01T00:00:00Z',
      who: 'ada\x1b]0;pwned\x07',
      what: 'login',
      outcome: 'ok',
      fields: { when: 'timestamp', who: 'user', what: 'action', outcome: 'result' },
    },
  ],
  notes: [],
  requests: 6,
  cost: { records: 4, fieldPages: 0, inboundQueries: 1 },
};

describe('x-ray tree', () => {
  it('places each record under its shortest path, marks repeats and cycles, and lets no control character through', () => {
    const text = xrayTree(result, { colour: false, depth: 2, inbound: true });
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);
    expect(text.split('\n')).toEqual([
      'alphas  Root "one"␛[2J  Failed  1',
      '',
      'Links (depth 2)',
      '├─ beta → betas  two\\path next  2',
      '│  └─ gamma → gammas  three  (elsewhere in this tree)',
      '└─ gamma → gammas  three  running  3',
      '   ├─ delta → deltas  broken  error: HTTP 500: down',
      '   └─ up → alphas  Root "one"␛[2J  ↺ cycle',
      '',
      'Referred to by',
      '└─ events by target_type/target_id: 12, first 1 shown',
      '   └─ events  login  5',
      '',
      'History (newest first)',
      '  fields read: when ← timestamp; who ← user; what ← action; outcome ← result',
      '  2026-01-01T00:00:00Z  ada␛]0;pwned␇  login  ok  events',
      '',
    ]);
  });
});

describe('x-ray dot', () => {
  it('quotes every label, escapes quotes and backslashes, and draws inbound references dashed and cycles dotted', () => {
    const dot = xrayDot(result);
    expect(dot).toContain(
      'n0 [label="alphas\\nRoot \\"one\\"␛[2J\\nFailed", color=red3, penwidth=2, tooltip="http://h/a/1"];',
    );
    expect(dot).toContain('n1 [label="betas\\ntwo\\\\path next", tooltip="http://h/b/2"];');
    expect(dot).toContain('n3 [label="deltas\\nbroken\\nerror: HTTP 500: down", color=red3, tooltip="http://h/d/4"];');
    expect(dot).toContain('n2 -> n0 [label="up", style=dotted, color=gray50];');
    expect(dot).toContain(
      'n4 -> n0 [label="target", style=dashed, tooltip="found by filtering on target_type/target_id"];',
    );
    expect(dot).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);
  });
});
