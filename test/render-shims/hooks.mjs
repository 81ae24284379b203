// Module hooks for the test forks (vitest.config.ts starts them with register.mjs): the string-width and
// @alcalzone/ansi-tokenize that ink and its dependencies import are routed through the wrappers of
// scripts/bundle-shims.mjs, as scripts/build.mjs routes them in the bundle. The UI tests then measure
// and tokenise text the way the explorer does; with the originals, measuring each text of each frame was
// the largest part of their rendering. Only bare imports from inside node_modules are routed: a test or
// src/ module that imports these packages gets the originals (test/unit/build/bundle-shims.test.ts
// compares the two).
import { readFile } from 'node:fs/promises';

const SHIMS = new URL('../../scripts/bundle-shims.mjs', import.meta.url).href;
const MARK = 'dpx-render-shim';

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const wrapped = specifier === 'string-width' || specifier === '@alcalzone/ansi-tokenize';
  if (!wrapped || !context.parentURL?.includes('/node_modules/') || resolved.url.includes(MARK)) return resolved;
  const query = new URLSearchParams({ [MARK]: specifier });
  if (specifier === 'string-width') {
    // string-width 8 measures a lone code point by its East Asian width; the shim asks the copy this
    // string-width imports itself, as the build does.
    const manifest = JSON.parse(await readFile(new URL('package.json', resolved.url), 'utf8'));
    if (Number(manifest.version.split('.')[0]) >= 8) {
      const eastAsian = await nextResolve('get-east-asian-width', { ...context, parentURL: resolved.url });
      query.set('east-asian', eastAsian.url);
    }
  }
  return { ...resolved, url: `${resolved.url}?${query}`, shortCircuit: true };
}

export async function load(url, context, nextLoad) {
  const at = url.indexOf(`?${MARK}=`);
  if (at < 0) return nextLoad(url, context);
  const real = JSON.stringify(url.slice(0, at));
  const query = new URLSearchParams(url.slice(at + 1));
  const eastAsian = query.get('east-asian');
  const source =
    query.get(MARK) === 'string-width'
      ? [
          `import real from ${real};`,
          `import { fastStringWidth } from ${JSON.stringify(SHIMS)};`,
          ...(eastAsian
            ? [
                `import { eastAsianWidth } from ${JSON.stringify(eastAsian)};`,
                'export default fastStringWidth(real, eastAsianWidth);',
              ]
            : ['export default fastStringWidth(real);']),
        ]
      : [
          `import * as real from ${real};`,
          `import { memoisedTokenizer } from ${JSON.stringify(SHIMS)};`,
          `export * from ${real};`,
          'export const { tokenize, styledCharsFromTokens, styledCharsToString } = memoisedTokenizer(real);',
        ];
  return { format: 'module', source: source.join('\n'), shortCircuit: true };
}
