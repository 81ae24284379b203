// Headless Chromium from Debian's packages (`apt-get install -y chromium`), driven by playwright-core,
// with nothing of its own reaching the network (no updates, sync or background requests).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A missing browser is a failure that says how to install it, never a skip. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get update && apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}
