// dpx keeps its own list of the methods read-only mode lets through. ketting (the link model) has one
// too, which also counts PROPFIND, REPORT, SEARCH, TRACE and PRI as safe: dpx must not take it.
import { isSafeMethod } from 'ketting/dist/http/util.js';
import { describe, expect, it } from 'vitest';
import { SafetyError } from '../../../src/api/errors.js';
import { isReadMethod, writeRefusal } from '../../../src/api/security/safety.js';

describe('the read methods of read-only mode', () => {
  it('are GET, HEAD and OPTIONS, in any case', () => {
    for (const method of ['GET', 'head', 'Options']) expect(isReadMethod(method), method).toBe(true);
  });

  it("are not ketting's wider list: what it alone counts as safe is refused in read-only mode", () => {
    const kettingOnly = ['PROPFIND', 'REPORT', 'SEARCH', 'TRACE', 'PRI'];
    for (const method of kettingOnly) {
      expect(isSafeMethod(method), method).toBe(true);
      expect(isReadMethod(method), method).toBe(false);
      expect(writeRefusal(method, true), method).toBeInstanceOf(SafetyError);
    }
  });
});
