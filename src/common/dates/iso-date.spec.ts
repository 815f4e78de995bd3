import { parseIsoDate } from './iso-date';

describe('parseIsoDate', () => {
  it.each([
    ['2026-03-01', '2026-03-01T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2026-03-01T10:20:30Z', '2026-03-01T10:20:30.000Z'],
    ['2026-03-01T10:20Z', '2026-03-01T10:20:00.000Z'],
    ['2026-03-01T10:20:30.123456Z', '2026-03-01T10:20:30.123Z'],
    ['2026-03-01T10:20:30+02:00', '2026-03-01T08:20:30.000Z'],
    ['2026-03-01T00:30:00-01:00', '2026-03-01T01:30:00.000Z'],
    ['2026-03-01T10:20:30', '2026-03-01T10:20:30.000Z'],
    ['1970-01-01', '1970-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
  ])('reads %s', (text, iso) => {
    expect(parseIsoDate(text)?.toISOString()).toBe(iso);
  });

  it.each([
    ['a day February does not have', '2026-02-30'],
    ['February 29 of a common year', '2026-02-29'],
    ['month 13', '2026-13-01'],
    ['day 0', '2026-01-00'],
    ['hour 24', '2026-01-01T24:00:00Z'],
    ['a leap second', '2026-01-01T23:59:60Z'],
    ['year 0001', '0001-01-01'],
    ['a year before 1970', '1969-12-31T23:59:59Z'],
    ['an offset moving it before 1970', '1970-01-01T00:30:00+01:00'],
    ['a six-digit year', '+010000-01-01'],
    ['a date without dashes', '20260301'],
    ['a US date', '03/01/2026'],
    ['words', 'tomorrow'],
    ['trailing text', '2026-03-01 and more'],
    ['a space for T', '2026-03-01 10:00:00'],
    ['an offset without colon', '2026-03-01T10:00:00+0200'],
    ['an offset of 24 hours', '2026-03-01T10:00:00+24:00'],
    ['the empty string', ''],
  ])('refuses %s', (_label, text) => {
    expect(parseIsoDate(text)).toBeNull();
  });
});
