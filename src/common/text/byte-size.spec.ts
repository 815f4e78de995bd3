import { describeBytes, overLimitSentence } from './byte-size';

const MIB = 1024 * 1024;

describe('describeBytes', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [1023, '1023 bytes'],
    [1024, '1 KiB'],
    [600 * 1024, '600 KiB'],
    [2 * MIB, '2 MiB'],
    [Math.round(3.1 * MIB), '3.1 MiB'],
  ])('%d bytes read "%s"', (bytes, words) => {
    expect(describeBytes(bytes)).toBe(words);
  });
});

describe('overLimitSentence', () => {
  it('says the size and the limit in words', () => {
    expect(overLimitSentence('page', Math.round(3.1 * MIB), 2 * MIB)).toBe(
      'This page holds 3.1 MiB; a page may hold at most 2 MiB.',
    );
  });

  it('never says a size over the limit is the limit', () => {
    expect(overLimitSentence('draft', 2 * MIB + 1, 2 * MIB)).toBe(
      'This draft holds more than 2 MiB; a draft may hold at most 2 MiB.',
    );
  });
});
