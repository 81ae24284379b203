import { describe, expect, it } from 'vitest';
import { readLine } from '../../../src/cli/completion/line.js';

describe('readLine', () => {
  it('finds the command, its positionals and the word at the cursor', () => {
    const line = readLine(['--profile', 'eu', 'call', 'tasks', 'get_']);
    expect(line.command).toBe('call');
    expect(line.positionals).toEqual(['tasks']);
    expect(line.current).toBe('get_');
    expect(line.options.get('profile')).toEqual(['eu']);
    expect(line.valueFor).toBeUndefined();
  });

  it("knows when the cursor is on an option's value, by long or short name", () => {
    expect(readLine(['list', 'users', '--version', '']).valueFor).toBe('version');
    expect(readLine(['list', '-o', 'cs']).valueFor).toBe('output');
    expect(readLine(['--ou', '']).valueFor).toBe('ou');
    // A flag takes no value: the next word is a positional.
    expect(readLine(['list', '--all', '']).valueFor).toBeUndefined();
  });

  it('reads --name=value and repeated options', () => {
    const line = readLine(['list', '--page-size=5', '--var', 'a=1', '--var', 'b=2', 'backups', '']);
    expect(line.options.get('page-size')).toEqual(['5']);
    expect(line.options.get('var')).toEqual(['a=1', 'b=2']);
    expect(line.positionals).toEqual(['backups']);
  });

  it('joins the words bash makes of name=value', () => {
    const line = readLine(['call', '--var', 'task_id', '=', '42', 'tasks', 'get_task', '']);
    expect(line.options.get('var')).toEqual(['task_id=42']);
    expect(line.positionals).toEqual(['tasks', 'get_task']);
    expect(readLine(['call', '--var', 'task_id', '=']).current).toBe('task_id=');
  });

  it('takes everything after -- as positionals, and an unknown word as a positional', () => {
    expect(readLine(['--', 'list', '--all', '']).positionals).toEqual(['list', '--all']);
    const unknown = readLine(['frobnicate', '']);
    expect(unknown.command).toBeUndefined();
    expect(unknown.positionals).toEqual(['frobnicate']);
  });
});
