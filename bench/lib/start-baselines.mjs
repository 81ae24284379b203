// The baselines of start-up: node starts, asks for the index, prints it — over node:http, the lightest a
// Node program can do and what dpx itself uses, and over fetch, the baseline until 2026-11, kept beside
// it so that the change of baseline shows. Each is the code of `node --input-type=module -e`.
export const HTTP_INDEX = `const { get } = await import('node:http');
get(process.env.DPX_BASE_URL + '/', { headers: { authorization: 'Bearer ' + process.env.DPX_TOKEN, accept: 'application/json' } }, (r) => r.pipe(process.stdout));`;
export const FETCH_INDEX = `const r = await fetch(process.env.DPX_BASE_URL + '/', { headers: { authorization: 'Bearer ' + process.env.DPX_TOKEN, accept: 'application/json' } });
process.stdout.write(await r.text());`;
