// Loaded by each test fork before anything else (vitest.config.ts, `execArgv`): see hooks.mjs.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
