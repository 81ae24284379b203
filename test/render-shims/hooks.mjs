// Module hooks for the test forks (vitest.config.ts starts them with register.mjs): the string-width and
// @alcalzone/ansi-tokenize that ink and its dependencies import are routed through the wrappers of
// scripts/bundle-shims.mjs, built by the same functions as the bundle's (scripts/build.mjs). The UI tests
// then measure and tokenise text the way the explorer does; with the originals, measuring each text of
// each frame was the largest part of their rendering. Only bare imports from inside node_modules are
// routed: a test or src/ module that imports these packages gets the originals
// (test/unit/build/bundle-shims.test.ts compares the two).
import { readFile } from 'node:fs/promises';
import { measuresByEastAsianWidth, tokenizerWrapperSource, widthWrapperSource } from '../../scripts/bundle-shims.mjs';

const SHIMS = new URL('../../scripts/bundle-shims.mjs', import.meta.url).href;
const MARK = 'dpx-render-shim';

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const wrapped = specifier === 'string-width' || specifier === '@alcalzone/ansi-tokenize';
  if (!wrapped || !context.parentURL?.includes('/node_modules/') || resolved.url.includes(MARK)) return resolved;
  const query = new URLSearchParams({ [MARK]: specifier });
  if (specifier === 'string-width') {
    const manifest = JSON.parse(await readFile(new URL('package.json', resolved.url), 'utf8'));
    if (measuresByEastAsianWidth(manifest.version)) {
      // The copy of get-east-asian-width that this string-width itself imports.
      const eastAsian = await nextResolve('get-east-asian-width', { ...context, parentURL: resolved.url });
      query.set('east-asian', eastAsian.url);
    }
  }
  return { ...resolved, url: `${resolved.url}?${query}`, shortCircuit: true };
}

export async function load(url, context, nextLoad) {
  const at = url.indexOf(`?${MARK}=`);
  if (at < 0) return nextLoad(url, context);
  const real = url.slice(0, at);
  const query = new URLSearchParams(url.slice(at + 1));
  const source =
    query.get(MARK) === 'string-width'
      ? widthWrapperSource({ real, shims: SHIMS, eastAsian: query.get('east-asian') ?? undefined })
      : tokenizerWrapperSource({ real, shims: SHIMS });
  return { format: 'module', source, shortCircuit: true };
}
