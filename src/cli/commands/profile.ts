// `dpx profile add|list|use|remove`: the saved control planes in the config file. A profile names where
// the token is (a file, an environment variable, or a command that prints it), never the token itself.

import { resolve } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { addProfile, listProfiles, removeProfile, useProfile, type Profile } from '../../config/profiles.js';
import type { GlobalFlags } from '../../config/settings.js';
import { positiveNumber } from '../args.js';
import { renderTable } from '../format/table.js';
import { DataWriter, type CliIO } from '../io.js';
import { tableWidth } from './output.js';

/** The actions of `dpx profile`; each but list names a profile. */
export const PROFILE_ACTIONS = ['add', 'list', 'use', 'remove'] as const;

export async function profileCommand(
  io: CliIO,
  configPath: string,
  positionals: string[],
  flags: GlobalFlags,
  options: Record<string, unknown>,
): Promise<number> {
  const [action, name, ...extra] = positionals;
  const needsName = action === 'add' || action === 'use' || action === 'remove';
  if (
    action === undefined ||
    (needsName && (name === undefined || extra.length > 0)) ||
    (action === 'list' && name !== undefined)
  ) {
    throw new UsageError(
      'dpx profile takes: add <name> --base-url URL …, list, use <name>, or remove <name>',
      'dpx profile --help',
    );
  }
  switch (action) {
    case 'add': {
      await addProfile(configPath, name!, profileFrom(flags, options));
      io.stderr.write(`profile ${name} saved in ${configPath}\n`);
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
      throw new UsageError(`unknown profile action '${action}'`, 'dpx profile takes add, list, use or remove');
  }
}

function profileFrom(flags: GlobalFlags, options: Record<string, unknown>): Profile {
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
  if (flags.allowWrites) profile.readOnly = false;
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
