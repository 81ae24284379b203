// `dpx profile add|list|use|remove|set|show`: the saved control planes in the config file. A profile names
// where the token is (a file, an environment variable, or a command that prints it), never the token itself.

import { resolve } from 'node:path';
import { UsageError } from '../../../api/errors.js';
import {
  addProfile,
  hasTokenSource,
  listProfiles,
  removeProfile,
  setProfileKey,
  showProfile,
  useProfile,
  type Profile,
} from '../../../config/profiles.js';
import type { GlobalFlags } from '../../../config/settings.js';
import { positiveNumber } from '../../options/values.js';
import { renderTable } from '../../format/table.js';
import { DataWriter } from '../../io.js';
import { tableWidth } from '../../options/output.js';
import type { LocalInput } from '../command.js';
import type { OptionValues } from '../../options/shared.js';
import type { spec } from './spec.js';

export async function run({
  io,
  configPath,
  positionals,
  flags,
  options,
}: LocalInput<OptionValues<typeof spec.options>>): Promise<number> {
  const [action, name, ...extra] = positionals;
  const needsName = action === 'add' || action === 'use' || action === 'remove' || action === 'show';
  if (
    action === undefined ||
    (needsName && (name === undefined || extra.length > 0)) ||
    (action === 'set' && (name === undefined || extra.length !== 2)) ||
    (action === 'list' && name !== undefined)
  ) {
    throw new UsageError(
      'dpx profile takes: add <name> --base-url URL …, list, use <name>, remove <name>, ' +
        'set <name> KEY VALUE, or show <name>',
      'dpx profile --help',
    );
  }
  switch (action) {
    case 'add': {
      const profile = profileFrom(flags, options);
      await addProfile(configPath, name!, profile);
      io.stderr.write(`profile ${name} saved in ${configPath}\n`);
      if (!hasTokenSource(profile))
        io.stderr.write(
          `warning: profile ${name} names no token source, so each run reads DPX_TOKEN; to keep one: ` +
            `dpx profile set ${name} tokenFile FILE (or tokenEnv VAR, or tokenCommand CMD)\n`,
        );
      return 0;
    }
    case 'set': {
      const [key, value] = extra as [string, string];
      const removed = await setProfileKey(configPath, name!, key, value);
      const instead = removed.length > 0 ? ` (instead of ${removed.join(', ')})` : '';
      io.stderr.write(`profile ${name}: ${key} ${value === '' ? 'removed' : 'set'}${instead}\n`);
      return 0;
    }
    case 'show': {
      const { profile, current } = await showProfile(configPath, name!);
      const out = new DataWriter(io.stdout);
      try {
        await out.write(`${JSON.stringify(profile, null, 2)}\n`);
      } finally {
        out.release();
      }
      io.stderr.write(`profile ${name} in ${configPath}${current ? ' (the current one)' : ''}\n`);
      return 0;
    }
    case 'use':
      await useProfile(configPath, name!);
      io.stderr.write(`now using profile ${name}\n`);
      return 0;
    case 'remove':
      await removeProfile(configPath, name!);
      io.stderr.write(`profile ${name} removed\n`);
      return 0;
    case 'list': {
      const profiles = await listProfiles(configPath);
      if (profiles.length === 0) {
        io.stderr.write(
          `no profiles in ${configPath}; add one with: dpx profile add NAME --base-url URL --token-file FILE\n`,
        );
        return 0;
      }
      const rows = profiles.map(({ name: profileName, profile, current }) => ({
        current: current ? '*' : '',
        name: profileName,
        base_url: profile.baseUrl,
        token:
          profile.tokenFile !== undefined
            ? `file ${profile.tokenFile}`
            : profile.tokenEnv !== undefined
              ? `env ${profile.tokenEnv}`
              : profile.tokenCommand !== undefined
                ? 'command'
                : 'DPX_TOKEN',
        ou: profile.ou ?? '',
        writes: writesColumn(profile.readOnly),
      }));
      const out = new DataWriter(io.stdout);
      try {
        await out.write(
          renderTable(rows, tableWidth(io), ['current', 'name', 'base_url', 'token', 'ou', 'writes']).text,
        );
      } finally {
        out.release();
      }
      return 0;
    }
    default:
      throw new UsageError(
        `unknown profile action '${action}'`,
        'dpx profile takes add, list, use, remove, set or show',
      );
  }
}

/** Options a run takes that a profile has no key for: given to profile add, they would be dropped. */
const NOT_KEPT: [keyof GlobalFlags, string][] = [
  ['profile', '--profile'],
  ['timeout', '--timeout'],
  ['trail', '--trail'],
  ['demo', '--demo'],
  ['offline', '--offline'],
  ['trustOrigin', '--trust-origin'],
];

function profileFrom(flags: GlobalFlags, options: Record<string, unknown>): Profile {
  const dropped = NOT_KEPT.filter(([flag]) => flags[flag] !== undefined).map(([, option]) => option);
  if (dropped.length > 0)
    throw new UsageError(
      `a profile cannot keep ${dropped.join(', ')}`,
      'give it to each run instead; a profile keeps --base-url, the token source, --ou, --ou-header, --vendor, ' +
        '--page-size, --concurrency, --rate, --proxy, --ca-file, --read-only or --allow-writes, and --schema-dir',
    );
  if (flags.baseUrl === undefined)
    throw new UsageError(
      'a profile needs --base-url URL',
      'e.g. dpx profile add prod --base-url https://dpm.example.com --token-file ~/.dpx/prod.token',
    );
  const tokenEnv = typeof options['token-env'] === 'string' ? options['token-env'] : undefined;
  const tokenCommand = typeof options['token-command'] === 'string' ? options['token-command'] : undefined;
  if ([tokenEnv, tokenCommand, flags.tokenFile].filter((place) => place !== undefined).length > 1) {
    throw new UsageError(
      'give one of --token-file, --token-env and --token-command',
      'a profile takes its token from one place',
    );
  }
  if (tokenCommand !== undefined && tokenCommand.trim() === '')
    throw new UsageError('--token-command is empty', 'e.g. --token-command "op read op://Support/eu/token"');
  const profile: Profile = { baseUrl: flags.baseUrl };
  // Relative to where the user typed it, not to the config file (which is how the profile reads it later).
  if (flags.tokenFile !== undefined)
    profile.tokenFile = flags.tokenFile.startsWith('~') ? flags.tokenFile : resolve(flags.tokenFile);
  if (tokenEnv !== undefined) profile.tokenEnv = tokenEnv;
  if (tokenCommand !== undefined) profile.tokenCommand = tokenCommand;
  if (flags.proxy !== undefined) profile.proxy = flags.proxy;
  // Relative to where the user typed it, as the token file.
  if (flags.caFile !== undefined) profile.caFile = flags.caFile.startsWith('~') ? flags.caFile : resolve(flags.caFile);
  if (flags.ou !== undefined) profile.ou = flags.ou;
  if (flags.ouHeader !== undefined) profile.ouHeader = flags.ouHeader;
  if (flags.vendor !== undefined) profile.vendor = flags.vendor;
  if (typeof options['page-size'] === 'string')
    profile.pageSize = positiveNumber('--page-size', options['page-size'], true);
  if (flags.concurrency !== undefined) profile.concurrency = flags.concurrency;
  if (flags.rate !== undefined) profile.rate = flags.rate;
  if (typeof options['schema-dir'] === 'string')
    profile.schemaDir = options['schema-dir'].startsWith('~') ? options['schema-dir'] : resolve(options['schema-dir']);
  if (flags.allowWrites) profile.readOnly = false;
  // Given both, the lock holds: the safer of the two.
  if (flags.readOnly) profile.readOnly = true;
  return profile;
}

/**
 * How a profile takes writes: locked ("readOnly": true: nothing turns them on), read-only by default (no
 * key: --allow-writes or W turns them on), or allowed ("readOnly": false).
 */
function writesColumn(readOnly: boolean | undefined): string {
  if (readOnly === true) return 'locked';
  return readOnly === false ? 'allowed' : 'read-only by default';
}
