// `dpx whoami`: what the token says about itself, where it came from (a file, a variable, a command) and
// the origin it belongs to. The token is decoded, never verified, and never printed; a token command
// runs for it as for any request.

import { relativeAge } from '../../../text/time.js';
import { UsageError } from '../../../api/errors.js';
import { describeToken } from '../../../api/security/token.js';
import type { CommandScope, PlaneInput } from '../command.js';
import { renderTable } from '../../format/table.js';
import { DataWriter } from '../../io.js';
import { jsonText, outputFormat } from '../../options/output.js';
import { spec } from './spec.js';
import type { OptionValues } from '../../options/shared.js';

export async function run(
  ctx: CommandScope,
  { options }: PlaneInput<OptionValues<typeof spec.options>>,
): Promise<number> {
  const now = Date.now();
  const format = outputFormat(options['output'], spec.formats);
  const { settings } = ctx;
  const token = settings.token ?? (await settings.tokenCommand?.token());
  if (token === undefined) {
    throw new UsageError(
      'no token: nothing to describe',
      'export DPX_TOKEN, pass --token-file FILE, or use a profile that names a token file, variable or command',
    );
  }
  const info = describeToken(token, settings.baseUrl ?? '', now);
  const belongsTo = settings.tokenOrigins?.join(', ');
  const out = new DataWriter(ctx.io.stdout);
  try {
    if (format === 'json') {
      await out.write(
        jsonText(
          {
            subject: info.subject ?? null,
            type: info.type ?? null,
            issuer: info.issuer ?? null,
            issued_at: info.issuedAt?.toISOString() ?? null,
            expires_at: info.expiresAt?.toISOString() ?? null,
            expires_in_seconds:
              info.expiresAt === undefined ? null : Math.round((info.expiresAt.getTime() - now) / 1000),
            control_plane: settings.baseUrl ?? null,
            ou: settings.ou ?? null,
            profile: settings.profile ?? null,
            token_source: settings.tokenSource ?? null,
            token_kind: settings.tokenKind ?? null,
            token_origin: belongsTo ?? null,
            warnings: info.warnings,
          },
          ctx.io,
        ),
      );
    } else {
      const rows: [string, string][] = [
        ['subject', info.subject ?? '(not stated)'],
        ['type', info.type ?? '(not stated)'],
        ['issuer', info.issuer ?? '(not stated)'],
        [
          'issued',
          info.issuedAt === undefined
            ? '(not stated)'
            : `${info.issuedAt.toISOString()} (${relativeAge(info.issuedAt.getTime(), now)})`,
        ],
        [
          'expires',
          info.expiresAt === undefined
            ? '(never, as far as the token says)'
            : `${info.expiresAt.toISOString()} (${relativeAge(info.expiresAt.getTime(), now)})`,
        ],
        ['control plane', settings.baseUrl ?? '(none configured)'],
        ['ou', settings.ou ?? "(none: the token's own scope)"],
        ['profile', settings.profile ?? '(none)'],
        ['token from', settings.tokenSource ?? '(unknown)'],
        ['token kind', settings.tokenKind ?? '(unknown)'],
        ['belongs to', belongsTo ?? '(the control plane it is used with)'],
        ...info.warnings.map((warning): [string, string] => ['warning', warning]),
      ];
      const { text } = renderTable(
        rows.map(([field, value]) => ({ field, value })),
        Infinity,
        ['field', 'value'],
      );
      // The key/value block reads better without the table's header line.
      await out.write(text.slice(text.indexOf('\n') + 1));
    }
  } finally {
    out.release();
  }
  return 0;
}
