// The demo's two regions as dpx profiles named after them, each reading its personal token from a variable
// of its own: the setup of the tests that ask one question across regions (`--profiles all`, a case of both).
import type { DemoFixture } from './demo.js';

/** The environment that hands each region's profile its token. */
export function regionTokens(demo: DemoFixture): Record<string, string> {
  return { EU_TOKEN: demo.region.tokens.personal, US_TOKEN: demo.otherRegion.tokens.personal };
}

/** Adds a profile per region through `dpx` (the test's runner): eu-west from EU_TOKEN, us-east from US_TOKEN. */
export async function addRegionProfiles(demo: DemoFixture, dpx: (argv: string[]) => Promise<unknown>): Promise<void> {
  for (const [region, tokenEnv] of [
    [demo.region, 'EU_TOKEN'],
    [demo.otherRegion, 'US_TOKEN'],
  ] as const) {
    await dpx(['profile', 'add', region.name, '--base-url', region.baseUrl, '--token-env', tokenEnv]);
  }
}
