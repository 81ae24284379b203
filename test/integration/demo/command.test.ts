import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runDemoCommand } from '../../../src/demo/command.js';
import { demoRequest } from '../../helpers/demo.js';

describe('dpx demo: runDemoCommand', () => {
  it("prints each region's base URL, tokens that work there, and a curl example", async () => {
    const out = new PassThrough();
    let printed = '';
    out.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const handle = await runDemoCommand({ port: 0, scale: 1 }, out);
    try {
      for (const region of handle.regions) {
        // Boolean checks: a failing toContain would echo the printed tokens into the test output.
        expect(printed.includes(`region ${region.name}`)).toBe(true);
        expect(printed.includes(`base URL        ${region.baseUrl}`)).toBe(true);
        const token = new RegExp(`region ${region.name}[\\s\\S]*?personal token  (\\S+)`).exec(printed)?.[1];
        expect((await demoRequest(region, '/', { token: token ?? '' })).status).toBe(200);
        expect(new RegExp(`curl -H "Authorization: Bearer \\S+" ${region.baseUrl}/`).test(printed)).toBe(true);
      }
    } finally {
      await handle.close();
    }
  });
});
