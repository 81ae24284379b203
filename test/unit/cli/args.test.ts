import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../../src/cli/args.js';
import { UsageError } from '../../../src/api/errors.js';

describe('parseCommandLine', () => {
  it('takes global options before and after the command', () => {
    const parsed = parseCommandLine([
      '--base-url',
      'http://a.test',
      'list',
      'users',
      '--ou',
      'u-1',
      '--all',
      '--read-only',
    ]);
    expect(parsed.command).toBe('list');
    expect(parsed.positionals).toEqual(['users']);
    expect(parsed.flags).toEqual({ baseUrl: 'http://a.test', ou: 'u-1', readOnly: true });
    expect(parsed.options['all']).toBe(true);
  });

  it('reads --version as a resource version inside a command and as "print version" without one', () => {
    expect(parseCommandLine(['operations', 'users', '--version', 'v1']).options['version']).toBe('v1');
    const bare = parseCommandLine(['--version']);
    expect(bare.command).toBe('explorer');
    expect(bare.printVersion).toBe(true);
  });

  it('opens the explorer when no command is given', () => {
    const parsed = parseCommandLine(['--demo']);
    expect(parsed.command).toBe('explorer');
    expect(parsed.flags.demo).toBe(true);
  });

  it('collects repeated --var and --query', () => {
    const parsed = parseCommandLine(['call', 'tasks', 'get_task', '--var', 'a=1', '--var', 'b=2', '--query', 'x=y']);
    expect(parsed.positionals).toEqual(['tasks', 'get_task']);
    expect(parsed.options['var']).toEqual(['a=1', 'b=2']);
    expect(parsed.options['query']).toEqual(['x=y']);
  });

  it('refuses a token given as an argument without echoing it', () => {
    for (const argv of [
      ['list', 'users', '--token', 'secret-value'],
      ['--token=secret-value', 'whoami'],
    ]) {
      let caught: unknown;
      try {
        parseCommandLine(argv);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(UsageError);
      expect((caught as UsageError).hint).toMatch(/DPX_TOKEN/);
      expect((caught as UsageError).message).not.toContain('secret-value');
    }
  });

  it('turns unknown options, unknown commands and bad numbers into usage errors (exit 2)', () => {
    expect(() => parseCommandLine(['list', 'users', '--bogus'])).toThrow(UsageError);
    expect(() => parseCommandLine(['frobnicate'])).toThrow(/unknown command 'frobnicate'/);
    expect(() => parseCommandLine(['resources', '--timeout', 'soon'])).toThrow(/--timeout must be a positive number/);
    expect(() => parseCommandLine(['resources', '--read-only', '--allow-writes'])).toThrow(UsageError);
    try {
      parseCommandLine(['list', 'users', '--bogus']);
    } catch (error) {
      expect((error as UsageError).exitCode).toBe(2);
    }
  });

  it('reads --concurrency (whole) and --rate as global options of any command', () => {
    expect(parseCommandLine(['--concurrency', '4', 'list', 'users', '--rate', '12.5']).flags).toEqual({
      concurrency: 4,
      rate: 12.5,
    });
    expect(() => parseCommandLine(['list', 'users', '--concurrency', '1.5'])).toThrow(
      /--concurrency must be a positive whole number/,
    );
    expect(() => parseCommandLine(['resources', '--rate', '0'])).toThrow(/--rate must be a positive number/);
  });

  it('keeps a command-only option out of other commands', () => {
    expect(() => parseCommandLine(['resources', '--all'])).toThrow(UsageError);
  });
});
