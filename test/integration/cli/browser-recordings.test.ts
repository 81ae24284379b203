// Recordings as browsers and Playwright make them: bodies left out (named as such; replay compares
// nothing it does not have), Playwright's zip and its bodies kept in files beside the HAR, `dpx report` of
// a browser's HAR (its commands taken from its requests), and a list recorded at one page size read at
// another, by the CLI.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { dpx } from './harness.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const demo = useDemo();
const fixtures = join(import.meta.dirname, '..', '..', 'fixtures');
const DEVTOOLS = join(fixtures, 'devtools-export.har');
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });
let dir: string;

interface Har {
  log: { entries: { request: { method: string; url: string }; response: { content: Record<string, unknown> } }[] };
}

/** `har` as a browser saves it without the bodies of the entries `which` picks. */
async function withoutBodies(from: string, to: string, which: (url: string) => boolean): Promise<string> {
  const har = JSON.parse(await readFile(from, 'utf8')) as Har;
  for (const entry of har.log.entries) {
    if (!which(entry.request.url)) continue;
    delete entry.response.content['text'];
    delete entry.response.content['encoding'];
  }
  await writeFile(to, JSON.stringify(har, null, 2));
  return to;
}

beforeAll(async () => {
  dir = temporaryFolder('dpx-browser-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('bodies left out', () => {
  it('are named: the index without its body is not "no discovery index"', async () => {
    const har = await withoutBodies(DEVTOOLS, join(dir, 'no-bodies.har'), () => true);
    const result = await dpx(['--offline', har, 'resources']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/the recording holds GET \/api\/ without its body; record with bodies/);
    expect(result.stderr).not.toMatch(/no discovery index/);
  });

  it('are not compared by replay, which says so instead of "same"', async () => {
    const trail = join(dir, 'replayed.har');
    const recorded = await dpx(['--trail', trail, 'list', 'users', '--page-size', '10'], { env: env() });
    expect(recorded.code, recorded.stderr).toBe(0);
    const har = await withoutBodies(trail, join(dir, 'replayed-browser.har'), (url) => url.includes('/users'));
    const table = await dpx(['replay', har], { env: env() });
    expect(table.code, table.stderr).toBe(0);
    const line = table.stdout.split('\n').find((each) => each.startsWith('GET /users'));
    expect(line).toMatch(/200 → 200 {2}not compared \(no body recorded\)$/);
    expect(table.stdout.split('\n').find((each) => each.startsWith('GET / '))).toMatch(/ same$/);
    const json = await dpx(['replay', har, '-o', 'json'], { env: env() });
    const requests = (JSON.parse(json.stdout) as { requests: { url: string; not_compared?: string }[] }).requests;
    expect(requests.find((request) => request.url.includes('/users'))?.not_compared).toBe('no body recorded');
  });
});

describe("Playwright's recordings", () => {
  it.each([
    ['a zip', join(fixtures, 'playwright', 'case.zip')],
    ['bodies in files beside the HAR', join(fixtures, 'playwright', 'attach', 'case.har')],
  ])('are read: %s', async (_what, file) => {
    const list = await dpx(['--offline', file, 'list', 'users', '--page-size', '2', '-o', 'json']);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { items: { email: string }[] }).items.map((item) => item.email)).toEqual([
      'lin.okafor@corp.example',
      'sam.ruiz@corp.example',
    ]);
  });
});

describe("Playwright's recordings without their files", () => {
  it('a HAR sent without the body files beside it has no bodies, and says so', async () => {
    const alone = join(dir, 'alone');
    await mkdir(alone);
    await copyFile(join(fixtures, 'playwright', 'attach', 'case.har'), join(alone, 'case.har'));
    const list = await dpx(['--offline', join(alone, 'case.har'), 'resources']);
    expect(list.code).not.toBe(0);
    expect(list.stderr).toMatch(/without its body; record with bodies/);
  });

  it('a zip whose file inflates past the size its directory says is refused as damaged', async () => {
    const bomb = join(dir, 'bomb.zip');
    await writeFile(bomb, zipOf('har.har', Buffer.alloc(4 * 1024 * 1024, 32), 100));
    const read = await dpx(['--offline', bomb, 'resources']);
    expect(read.code).toBe(2);
    expect(read.stderr).toMatch(/is not a zip archive dpx can read \(har\.har does not inflate to the 100 bytes/);
  });
});

/** A one-file zip archive, deflated, whose directory claims the file is `claimed` bytes. */
function zipOf(name: string, content: Buffer, claimed: number): Buffer {
  const data = deflateRawSync(content);
  const fileName = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(claimed, 22);
  local.writeUInt16LE(fileName.length, 26);
  const directory = Buffer.alloc(46);
  directory.writeUInt32LE(0x02014b50, 0);
  directory.writeUInt16LE(8, 10);
  directory.writeUInt32LE(data.length, 20);
  directory.writeUInt32LE(claimed, 24);
  directory.writeUInt16LE(fileName.length, 28);
  directory.writeUInt32LE(0, 42);
  const directoryAt = local.length + fileName.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(directory.length + fileName.length, 12);
  end.writeUInt32LE(directoryAt, 16);
  return Buffer.concat([local, fileName, data, directory, fileName, end]);
}

describe('dpx report of a browser HAR', () => {
  it('answers the commands its requests make, from the case', async () => {
    const out = join(dir, 'browser-report.md');
    const result = await dpx(['report', DEVTOOLS, '-o', out]);
    expect(result.code, result.stderr).toBe(0);
    const report = await readFile(out, 'utf8');
    expect(report).toContain('dpx list users --page-size 2');
    expect(report).toContain('lin.okafor@corp.example');
    expect(report).not.toContain('Not answered from the case');
  });
});

describe('a list recorded at one page size', () => {
  it('is read offline at any other, saying which size it shows', async () => {
    const trail = join(dir, 'sized.har');
    const recorded = await dpx(['--trail', trail, 'list', 'tasks', '--page-size', '20', '-o', 'json'], { env: env() });
    expect(recorded.code, recorded.stderr).toBe(0);
    const ids = (JSON.parse(recorded.stdout) as { items: { id: string }[] }).items.map((item) => item.id);
    for (const size of [[], ['--page-size', '50']]) {
      const offline = await dpx(['--offline', trail, 'list', 'tasks', ...size, '-o', 'json']);
      expect(offline.code, offline.stderr).toBe(0);
      expect((JSON.parse(offline.stdout) as { items: { id: string }[] }).items.map((item) => item.id)).toEqual(ids);
      expect(offline.stderr).toMatch(/is shown from the page the case holds at page size 20/);
    }
  });
});
