// The files of a zip archive, as Playwright writes a recording (`recordHar` to a `.zip`: the HAR as
// `har.har`, each body beside it as a file its entry names in `content._file`). Read with Node's own
// zlib over the archive's central directory, which holds every file's true sizes (a local header written
// while streaming may not): stored and deflated files, no ZIP64, no encryption, which Playwright does not
// write. No dependency for a format read this rarely.
import { inflateRawSync } from 'node:zlib';
import { UsageError } from '../errors.js';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record is 22 bytes and may carry a comment of up to 65,535. */
const END_SEARCH = 22 + 0xffff;
/**
 * What an archive may inflate to, all files together: a case comes from someone else, and a few
 * kilobytes of deflate can stand for gigabytes (a zip bomb).
 */
export const MAX_UNZIPPED_BYTES = 1024 * 1024 * 1024;

/** Whether `head` (a file's first bytes) starts a zip archive. */
export function isZip(head: Buffer): boolean {
  return head.length >= 4 && head.readUInt32LE(0) === LOCAL_HEADER;
}

/** Every file of the archive by its name, its bytes inflated. */
export function unzip(archive: Buffer, source: string): Map<string, Buffer> {
  const damaged = (what: string) =>
    new UsageError(
      `${source} is not a zip archive dpx can read (${what})`,
      'give the .zip Playwright wrote, unchanged',
    );
  let end = -1;
  for (let at = archive.length - 22; at >= Math.max(0, archive.length - END_SEARCH); at -= 1) {
    if (archive.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw damaged('no end of central directory');
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  let left = MAX_UNZIPPED_BYTES;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > archive.length || archive.readUInt32LE(at) !== DIRECTORY_ENTRY) throw damaged('a damaged directory');
    const method = archive.readUInt16LE(at + 10);
    const compressed = archive.readUInt32LE(at + 20);
    const size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + archive.readUInt16LE(at + 30) + archive.readUInt16LE(at + 32);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const local = archive.readUInt32LE(at + 42);
    if (compressed === 0xffffffff || local === 0xffffffff || size === 0xffffffff) throw damaged('ZIP64');
    if (local + 30 > archive.length || archive.readUInt32LE(local) !== LOCAL_HEADER)
      throw damaged(`a damaged header for ${name}`);
    const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    if (start + compressed > archive.length) throw damaged(`${name} runs past the archive's end`);
    if (size > left) throw damaged(`files larger than ${MAX_UNZIPPED_BYTES / 1024 ** 3} GiB in all`);
    const data = archive.subarray(start, start + compressed);
    let bytes: Buffer;
    if (method === 0) bytes = data;
    else if (method === 8) {
      try {
        // Never more than the directory says: a deflate stream that runs on is cut, then refused below.
        bytes = inflateRawSync(data, { maxOutputLength: Math.max(1, size) });
      } catch {
        throw damaged(`${name} does not inflate to the ${size} bytes its directory says`);
      }
    } else throw damaged(`compression method ${method} for ${name}`);
    if (bytes.length !== size) throw damaged(`${name} is ${bytes.length} bytes, its directory says ${size}`);
    left -= size;
    files.set(name, bytes);
    at = next;
  }
  return files;
}
