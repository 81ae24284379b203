import { startDemo, type DemoHandle, type DemoOptions } from './server.js';
import { organizationalUnitHeader } from './engine.js';
import { resources } from './catalog.js';

/** The names of the demo's resources, each a list (`--link-header-paging` takes them). */
export function demoLists(): string[] {
  return Object.keys(resources);
}

/**
 * `dpx demo`: starts the demo control plane and prints each region's base URL, its ready-to-use demo
 * tokens (demo credentials, made for printing) and a curl example. Returns the running handle.
 */
export async function runDemoCommand(options: DemoOptions, out: NodeJS.WritableStream): Promise<DemoHandle> {
  const handle = await startDemo(options);
  const vendor = (options.vendor ?? 'service').toLowerCase();
  const paged = options.linkHeaderPaging?.length ? `, ${options.linkHeaderPaging.join(', ')} paged by Link header` : '';
  const lines = [
    `dpx demo control plane (scale ${options.scale ?? 1}, seed ${options.seed ?? 42}` +
      `${options.rateLimit ? `, ${options.rateLimit} requests/s per token` : ''}` +
      `${options.frozen ? ', live tasks frozen' : ''}${paged})`,
    '',
  ];
  for (const region of handle.regions) {
    const tenants = region.units.filter((u) => u.kind === 'tenant');
    lines.push(
      `region ${region.name}`,
      `  base URL        ${region.baseUrl}`,
      `  personal token  ${region.tokens.personal}`,
      `  service token   ${region.tokens.service}`,
      `  expired token   ${region.tokens.expired}`,
      `  try             curl -H "Authorization: Bearer ${region.tokens.personal}" ${region.baseUrl}/`,
      `  or              export DPX_BASE_URL=${region.baseUrl} DPX_TOKEN=${region.tokens.personal}; dpx resources`,
      `  units           ${tenants.length} tenants, ${region.units.length} units in all${tenants[0] ? `; e.g. ${tenants[0].id} (${tenants[0].name})` : ''}`,
      ...(region.hiddenTenants.length > 0
        ? [
            `  hidden          from lists without the OU header: ${region.hiddenTenants.map((tenant) => `${tenant.name} (${tenant.id})`).join(', ')}`,
          ]
        : []),
      '',
    );
  }
  lines.push(`Organizational-unit header: ${organizationalUnitHeader(vendor)}`);
  lines.push('Tokens are valid only at the region that printed them. Press Ctrl+C to stop.', '');
  out.write(lines.join('\n'));
  return handle;
}
