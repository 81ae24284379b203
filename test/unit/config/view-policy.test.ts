// The view allow-list: every option on it is one its command takes, and anything not on it is refused.
import { describe, expect, it } from 'vitest';
import { commandOptions, isCommandWord } from '../../../src/cli/args.js';
import { VIEW_COMMANDS, viewRefusal } from '../../../src/config/view-policy.js';

describe('the view allow-list', () => {
  it('names only commands and options dpx has', () => {
    for (const [command, options] of Object.entries(VIEW_COMMANDS)) {
      expect(isCommandWord(command)).toBe(true);
      if (!isCommandWord(command)) continue;
      const known = Object.keys(commandOptions(command));
      for (const option of options) expect(known, `${command} --${option}`).toContain(option);
    }
  });

  it('refuses an option it does not name, such as one added to dpx later', () => {
    expect(viewRefusal({ command: 'list', options: ['filter', 'output'] })).toBeUndefined();
    expect(viewRefusal({ command: 'list', options: ['filter', 'brand-new'] })?.message).toContain(
      'may not hold --brand-new',
    );
    for (const option of ['base-url', 'token-file', 'trust-origin', 'proxy', 'ca-file', 'allow-writes', 'trail'])
      expect(viewRefusal({ command: 'count', options: [option] })?.message).toContain(`--${option}`);
    for (const option of ['yes', 'confirm-id', 'body', 'edit', 'send-invalid', 'wait'])
      expect(viewRefusal({ command: 'call', options: [option] })?.message).toContain(`--${option}`);
    for (const command of ['profile', 'view', 'demo', 'completion', 'case', 'report', 'replay', 'explorer'])
      expect(viewRefusal({ command, options: [] })?.exitCode).toBe(2);
  });
});
