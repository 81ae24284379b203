// The exact request before it goes: token masked, the OU named, `c` copies it as curl; while writes are
// off, Enter sends nothing.
import { describe, expect, it } from 'vitest';
import type { PreparedRequest } from '../../../src/api/hal/operation.js';
import { Session } from '../../../src/api/session/session.js';
import { osc52 } from '../../../src/ui/clipboard.js';
import { ENTER, ESC, NOWHERE, openScreen, topKind } from './harness.js';

const request: PreparedRequest = {
  method: 'POST',
  url: `${NOWHERE}/restores`,
  headers: {
    accept: 'application/api.service.restores=v1+json',
    'x-service-organizationalunit-context': 'ou-7',
    'content-type': 'application/json',
  },
  body: '{"backup_id":"b-1"}',
  resource: 'restores',
  version: 'v1',
  operationId: 'create_restore',
  ou: 'ou-7',
};

function open(readOnly: boolean, copied: string[] = []) {
  const session = new Session({ baseUrl: NOWHERE, readOnly, maxRetries: 0 });
  return openScreen(
    'request-preview',
    (origin, navigator) => ({ flow: { origin, start: navigator.top()!.id }, form: navigator.top()!.id, request }),
    {
      session,
      terminal: { copy: (text) => copied.push(text) },
    },
  );
}

describe('the request preview', () => {
  it('shows the exact request with the token masked; c copies the curl command and shows it; Enter asks to confirm a write', async () => {
    const copied: string[] = [];
    const ui = await open(false, copied);
    const frame = await ui.waitFor((f) => f.includes(`POST ${NOWHERE}/restores`), 'the preview');
    expect(frame).toContain('authorization: Bearer ***');
    expect(frame).toContain('x-service-organizationalunit-context: ou-7');
    expect(frame).toContain('OU: ou-7');
    expect(frame).toContain('"backup_id": "b-1"');
    await ui.press('c');
    const after = await ui.waitFor(
      (f) => f.includes("sent to the terminal's clipboard as OSC 52 — if the terminal accepts it"),
      'the copy',
    );
    expect(copied).toHaveLength(1);
    expect(copied[0]).toContain(`curl -X 'POST' '${NOWHERE}/restores'`);
    expect(after).toContain('Bearer $DPX_TOKEN');
    await ui.press(ENTER);
    await ui.waitFor((f) => f.includes('Send this POST?'), 'the confirmation');
    expect(topKind(ui)).toBe('write-confirm');
    await ui.unmount();
  });

  it('refuses to send a write in read-only mode, saying so', async () => {
    const ui = await open(true);
    await ui.waitFor((f) => f.includes('read-only mode: POST changes data and was not sent'), 'the refusal');
    await ui.press(ENTER);
    expect(topKind(ui)).toBe('request-preview');
    await ui.press(ESC);
    expect(topKind(ui)).toBe('catalog');
    await ui.unmount();
  });
});

describe('osc52', () => {
  it('carries the text base64-encoded, plain: no tmux passthrough wrapping, which tmux ignores by default', () => {
    expect(osc52('hi')).toBe('\x1b]52;c;aGk=\x07');
  });
});
