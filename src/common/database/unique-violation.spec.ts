import { isUniqueViolation } from './unique-violation';

describe('isUniqueViolation', () => {
  it.each<[string, unknown, boolean]>([
    ['MySQL duplicate key', { code: 'ER_DUP_ENTRY', message: "Duplicate entry 'a'" }, true],
    ['SQLite unique index', { code: 'SQLITE_CONSTRAINT_UNIQUE', message: '' }, true],
    ['SQLite primary key', { code: 'SQLITE_CONSTRAINT_PRIMARYKEY', message: '' }, true],
    ['SQLite message only', new Error('UNIQUE constraint failed: pages.live_slug'), true],
    [
      'SQLite NOT NULL',
      { code: 'SQLITE_CONSTRAINT_NOTNULL', message: 'NOT NULL constraint failed: t.a' },
      false,
    ],
    [
      'SQLite foreign key',
      { code: 'SQLITE_CONSTRAINT_FOREIGNKEY', message: 'FOREIGN KEY constraint failed' },
      false,
    ],
    [
      'MySQL foreign key',
      { code: 'ER_NO_REFERENCED_ROW_2', message: 'Cannot add or update' },
      false,
    ],
    ['another error', new Error('boom'), false],
    ['undefined', undefined, false],
    ['null', null, false],
  ])('%s → %s', (_name, error, expected) => {
    expect(isUniqueViolation(error)).toBe(expected);
  });
});
