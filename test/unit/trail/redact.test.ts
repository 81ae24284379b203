import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactHeaders, redactText } from '../../../src/api/security/redact.js';
import { jwt, secret, textWith } from './arbitraries.js';
import { anyText } from '../../helpers/any-unicode.js';

const SAMPLE_JWT =
  'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbGljZSIsImV4cCI6MTcwMDAwMDAwMH0.c2lnbmF0dXJlLWJ5dGVz';

describe('redactText', () => {
  it('masks a JWT wherever it sits: a URL, a JSON body, a sentence', () => {
    expect(redactText(`https://h/x?token=${SAMPLE_JWT}&a=1`, [])).toBe('https://h/x?token=***&a=1');
    expect(redactText(`{"access_token":"${SAMPLE_JWT}"}`, [])).toBe('{"access_token":"***"}');
    expect(redactText(`the token ${SAMPLE_JWT}. expired`, [])).toBe('the token ***. expired');
  });

  it('masks an unsigned JWT (empty third segment) and a JWE (five segments)', () => {
    expect(redactText('a eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0. b', [])).toBe('a *** b');
    expect(redactText('eyJhbGciOiJSU0EifQ.a.b.c.d', [])).toBe('***');
    expect(redactText('eyJhbGciOiJkaXIifQ..iv.ciphertext.tag.', [])).toBe('***.');
  });

  it('masks every given secret, also percent-encoded, the longer one whole', () => {
    expect(redactText('key=opaque/+token, again opaque/+token', ['opaque/+token'])).toBe('key=***, again ***');
    expect(redactText('https://h/x?k=opaque%2F%2Btoken', ['opaque/+token'])).toBe('https://h/x?k=***');
    expect(redactText('abcdef-long abcdef', ['abcdef', 'abcdef-long'])).toBe('*** ***');
  });

  it('masks the secrets of each call, whatever the call before it masked', () => {
    const text = 'first-secret-value and second-secret-value';
    expect(redactText(text, ['first-secret-value'])).toBe('*** and second-secret-value');
    expect(redactText(text, ['second-secret-value'])).toBe('first-secret-value and ***');
    const both = ['first-secret-value', 'second-secret-value'];
    expect(redactText(text, both)).toBe('*** and ***');
    both.pop();
    expect(redactText(text, both)).toBe('*** and second-secret-value');
  });

  it('leaves text without secrets or JWTs as it is', () => {
    expect(redactText('eyJ alone, a.b.c, {"name":"x"}', ['', 'absent'])).toBe('eyJ alone, a.b.c, {"name":"x"}');
  });

  it('property: no secret and no JWT survives', () => {
    fc.assert(
      fc.property(
        fc
          .array(secret, { minLength: 1, maxLength: 4 })
          .chain((secrets) => fc.tuple(fc.constant(secrets), textWith(secrets))),
        ([secrets, { text, jwts }]) => {
          const redacted = redactText(text, secrets);
          for (const value of [...secrets, ...jwts]) expect(redacted).not.toContain(value);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('property: text that holds no secret and no JWT marker is unchanged', () => {
    fc.assert(
      fc.property(anyText(), secret, (text, value) => {
        fc.pre(!text.includes('eyJ') && !text.includes(value) && !text.includes(encodeURIComponent(value)));
        expect(redactText(text, [value])).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});

describe('redactHeaders', () => {
  it('keeps the scheme of Authorization and masks credential headers whole', () => {
    expect(
      redactHeaders({
        Authorization: `Bearer ${SAMPLE_JWT}`,
        'proxy-authorization': 'Basic dXNlcjpwYXNz',
        Cookie: 'session=abc',
        'Set-Cookie': 'id=1; HttpOnly',
        'X-Api-Key': 'k-123',
        'x-auth-token': 'opaque',
        Accept: 'application/json',
      }),
    ).toEqual({
      Authorization: 'Bearer ***',
      'proxy-authorization': 'Basic ***',
      Cookie: '***',
      'Set-Cookie': '***',
      'X-Api-Key': '***',
      'x-auth-token': '***',
      Accept: 'application/json',
    });
  });

  it('masks an Authorization value with an unknown scheme whole, since its first word may be the credential', () => {
    expect(redactHeaders({ authorization: 'opaque-credential more' })).toEqual({ authorization: '***' });
  });

  it('masks secrets and JWTs inside any other header, keeping the rest of the value', () => {
    expect(
      redactHeaders({ Location: `https://h/next?t=${SAMPLE_JWT}`, 'x-note': 'id s3cr3t-value here' }, ['s3cr3t-value']),
    ).toEqual({
      Location: 'https://h/next?t=***',
      'x-note': 'id *** here',
    });
  });

  it('property: no secret or JWT survives in any header name or value', () => {
    const headerName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/);
    fc.assert(
      fc.property(
        fc
          .array(secret, { minLength: 1, maxLength: 3 })
          .chain((secrets) =>
            fc.tuple(
              fc.constant(secrets),
              fc.dictionary(headerName, textWith(secrets), { maxKeys: 6 }),
              fc.constantFrom(...secrets),
              jwt,
            ),
          ),
        ([secrets, generated, token, jwtValue]) => {
          const headers: Record<string, string> = { Authorization: `Bearer ${token}`, 'X-Id-Token': jwtValue };
          const jwts = [jwtValue];
          for (const [name, { text, jwts: inText }] of Object.entries(generated)) {
            headers[name] = text;
            jwts.push(...inText);
          }
          const output = Object.entries(redactHeaders(headers, secrets)).flat();
          for (const value of [...secrets, ...jwts]) {
            for (const text of output) expect(text).not.toContain(value);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
