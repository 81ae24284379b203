import { describe, expect, it } from 'vitest';
import { previewRequest } from '../../../src/api/operations/preview.js';
import { osc52 } from '../../../src/ui/operations/clipboard.js';
import { RequestPreview } from '../../../src/ui/operations/request-preview.js';
import { ENTER, ESC, mount, press, unmount, until } from './harness.js';

const request = {
  method: 'POST',
  url: 'http://127.0.0.1:9/restores',
  headers: { accept: 'application/api.service.restores=v1+json', 'x-service-organizationalunit-context': 'ou-7', 'content-type': 'application/json' },
  body: '{"backup_id":"b-1"}',
  resource: 'restores',
  version: 'v1',
  operationId: 'create_restore',
  ou: 'ou-7',
};
const preview = previewRequest(request, { authenticated: true, ouName: 'Finance' });

describe('RequestPreview', () => {
  it('shows the exact request with the token masked; c copies the curl command and shows it', async () => {
    const copied: string[] = [];
    const sent: string[] = [];
    const ui = await mount(<RequestPreview preview={preview} readOnly={false} copy={(t) => copied.push(t)} onSend={() => sent.push('send')} onBack={() => undefined} />);
    const frame = await until(ui, (f) => f.includes('POST http://127.0.0.1:9/restores'));
    expect(frame).toContain('authorization: Bearer ***');
    expect(frame).toContain('x-service-organizationalunit-context: ou-7');
    expect(frame).toContain('OU: Finance ou-7');
    expect(frame).toContain('{"backup_id":"b-1"}');
    await press(ui, 'c');
    const after = await until(ui, (f) => f.includes('copied as curl'));
    expect(copied).toEqual([preview.curl]);
    expect(after).toContain("curl -X 'POST' 'http://127.0.0.1:9/restores'");
    expect(after).toContain('Bearer $DPX_TOKEN');
    await press(ui, ENTER);
    expect(sent).toEqual(['send']);
    await unmount(ui);
  });

  it('refuses to send a write in read-only mode, saying so', async () => {
    const sent: string[] = [];
    let back = false;
    const ui = await mount(<RequestPreview preview={preview} readOnly copy={() => undefined} onSend={() => sent.push('send')} onBack={() => (back = true)} />);
    await until(ui, (f) => f.includes('read-only mode: POST changes data and was not sent'));
    await press(ui, ENTER, ESC);
    expect(sent).toEqual([]);
    expect(back).toBe(true);
    await unmount(ui);
  });
});

describe('osc52', () => {
  it('carries the text base64-encoded, wrapped for tmux when inside it', () => {
    expect(osc52('hi', {})).toBe('\x1b]52;c;aGk=\x07');
    expect(osc52('hi', { TMUX: '/tmp/t' })).toBe('\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\');
  });
});
