// `dpx demo`: the demo control plane alone, until Ctrl-C (or the caller's abort signal).

import { once } from 'node:events';
import { UsageError } from '../../../api/errors.js';
import { nonNegativeInteger, positiveNumber } from '../../options/values.js';
import type { LocalInput } from '../command.js';
import type { OptionValues } from '../../options/shared.js';
import type { spec } from './spec.js';

export async function run({ io, options }: LocalInput<OptionValues<typeof spec.options>>): Promise<number> {
  const text = (name: keyof typeof options): string | undefined => {
    const value = options[name];
    return typeof value === 'string' ? value : undefined;
  };
  const port = text('port');
  const scale = text('scale');
  const seed = text('seed');
  const rateLimit = text('rate-limit');
  const tenants = text('tenants');
  const hiddenTenants = text('hidden-tenants');
  const linkHeaderPaging = text('link-header-paging');
  const demoOptions = {
    ...(port === undefined ? {} : { port: nonNegativeInteger('--port', port) }),
    ...(scale === undefined ? {} : { scale: positiveNumber('--scale', scale) }),
    ...(seed === undefined ? {} : { seed: nonNegativeInteger('--seed', seed) }),
    ...(rateLimit === undefined ? {} : { rateLimit: positiveNumber('--rate-limit', rateLimit) }),
    ...(tenants === undefined ? {} : { tenants: positiveNumber('--tenants', tenants, true) }),
    ...(hiddenTenants === undefined ? {} : { hiddenTenants: nonNegativeInteger('--hidden-tenants', hiddenTenants) }),
    ...(options['frozen'] === true ? { frozen: true } : {}),
    ...(linkHeaderPaging === undefined
      ? {}
      : {
          linkHeaderPaging: linkHeaderPaging
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean),
        }),
  };
  const { demoLists, runDemoCommand } = await import('../../../demo/command.js');
  const unknown = (demoOptions.linkHeaderPaging ?? []).filter((name) => !demoLists().includes(name));
  if (unknown.length > 0)
    throw new UsageError(
      `--link-header-paging: the demo has no list ${unknown.join(', ')}`,
      `its lists: ${demoLists().join(', ')}`,
    );
  const handle = await runDemoCommand(demoOptions, io.stdout);
  try {
    if (io.signal && !io.signal.aborted) await once(io.signal, 'abort');
  } finally {
    await handle.close();
  }
  return 0;
}
