// The paste reader on its own: a paste whose end mark never comes must not leave the explorer deaf.
import { describe, expect, it } from 'vitest';
import { MAX_PASTE, PasteReader } from '../../src/ui/paste.js';

describe('PasteReader', () => {
  it('takes a paste between its marks as text, and keys outside them as keys', () => {
    const reader = new PasteReader();
    expect(reader.hear('\x1b[200~')).toEqual({ swallow: true });
    expect(reader.hear('q\r')).toEqual({ swallow: true });
    expect(reader.hear('\x1b[201~')).toEqual({ swallow: true, pasted: 'q\r' });
    expect(reader.hear('q')).toEqual({ swallow: false });
  });

  it('lets Ctrl-C through when the end mark never came, and types nothing of what it held', () => {
    const reader = new PasteReader();
    reader.hear('\x1b[200~delete everything');
    expect(reader.hear('\x03')).toEqual({ swallow: false });
    expect(reader.hear('j')).toEqual({ swallow: false });
  });

  it('keeps at most MAX_PASTE characters of one paste', () => {
    const reader = new PasteReader();
    reader.hear('\x1b[200~');
    for (let i = 0; i < 3; i += 1) reader.hear('x'.repeat(MAX_PASTE / 2));
    expect(reader.hear('\x1b[201~').pasted).toHaveLength(MAX_PASTE);
  });
});
