import { linkToken } from './link-token';

describe('linkToken', () => {
  it('reads the token from the fragment', () => {
    expect(linkToken('#token=abc_DEF-123')).toBe('abc_DEF-123');
    expect(linkToken('token=abc')).toBe('abc');
  });

  it('answers nothing for a missing or malformed token', () => {
    expect(linkToken('')).toBe('');
    expect(linkToken('#other=1')).toBe('');
    expect(linkToken('#token=<script>')).toBe('');
    expect(linkToken(`#token=${'a'.repeat(129)}`)).toBe('');
  });
});
