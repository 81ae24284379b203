import { afterAll, beforeAll } from 'vitest';
import { startDemo, type DemoHandle, type DemoOptions, type DemoRegion } from '../../src/demo/server.js';

export interface DemoFixture {
  /** The running demo; read it inside tests or hooks, not at collection time. */
  readonly handle: DemoHandle;
  /** The first region (eu-west). */
  readonly region: DemoRegion;
  /** The second region (us-east). */
  readonly otherRegion: DemoRegion;
}

/** Starts a demo control plane before the file's tests and closes it after them. */
export function useDemo(options: DemoOptions = {}): DemoFixture {
  let handle: DemoHandle | undefined;
  beforeAll(async () => {
    handle = await startDemo(options);
  });
  afterAll(async () => {
    await handle?.close();
  });
  const running = (): DemoHandle => {
    if (!handle) throw new Error('the demo control plane is not running: use the fixture inside tests or hooks');
    return handle;
  };
  const regionAt = (i: number): DemoRegion => {
    const region = running().regions[i];
    if (!region) throw new Error(`the demo has no region ${i}`);
    return region;
  };
  return {
    get handle() {
      return running();
    },
    get region() {
      return regionAt(0);
    },
    get otherRegion() {
      return regionAt(1);
    },
  };
}
