import {
  column,
  encodeValue,
  entityColumns,
  keysWhere,
  rowDecoder,
  RowOf,
  selectList,
  valueOf,
} from './column-defs';

const THINGS = {
  id: column.uuid('id', { primary: true }),
  name: column.varchar('display_name', 64, { listed: true }),
  body: column.text('body', { nullable: true }),
  count: column.int('count', { default: 0, listed: true }),
  done: column.bool('done', { default: false }),
  dueAt: column.datetime('due_at', { nullable: true }),
  tags: column.json('tags', {}, valueOf<string[]>()),
};

describe('column definitions', () => {
  it('derive a TypeORM EntitySchema column map', () => {
    expect(entityColumns(THINGS)).toEqual({
      id: { name: 'id', type: 'varchar', nullable: false, primary: true, length: 36 },
      name: { name: 'display_name', type: 'varchar', nullable: false, length: 64 },
      body: { name: 'body', type: 'text', nullable: true },
      count: { name: 'count', type: 'int', nullable: false, default: 0 },
      done: { name: 'done', type: 'boolean', nullable: false, default: false },
      dueAt: { name: 'due_at', type: 'datetime', nullable: true, precision: 3 },
      tags: { name: 'tags', type: 'simple-json', nullable: false },
    });
  });

  it('select columns under their SQL names and pick keys by a feature flag, in order', () => {
    expect(selectList(THINGS, ['id', 'name'], 'x')).toBe('x.id, x.display_name');
    expect(keysWhere(THINGS, (c) => 'listed' in c)).toEqual(['name', 'count']);
  });

  it('decode rows as either driver hands them back (a column not selected is undefined)', () => {
    const fromSqlite = {
      id: 'a',
      display_name: 'A',
      count: 3,
      done: 1,
      due_at: '2026-01-02 03:04:05.678',
      tags: '["x","y"]',
    };
    const fromMysql = { ...fromSqlite, done: 1, due_at: new Date('2026-01-02T03:04:05.678Z') };
    const expected: Partial<RowOf<typeof THINGS>> = {
      id: 'a',
      name: 'A',
      count: 3,
      done: true,
      dueAt: new Date('2026-01-02T03:04:05.678Z'),
      tags: ['x', 'y'],
    };
    const decode = rowDecoder(THINGS, ['id', 'name', 'body', 'count', 'done', 'dueAt', 'tags']);
    expect(decode(fromSqlite)).toEqual(expected);
    expect(decode(fromSqlite).body).toBeUndefined();
    expect(decode(fromMysql)).toEqual(expected);
    expect(decode({ ...fromSqlite, body: null, due_at: null })).toEqual({
      ...expected,
      body: null,
      dueAt: null,
    });
  });

  it('encode JSON as text and leave the rest to the driver', () => {
    expect(encodeValue(THINGS.tags, ['x'])).toBe('["x"]');
    expect(encodeValue(THINGS.done, true)).toBe(true);
    expect(encodeValue(THINGS.body, undefined)).toBeNull();
  });
});
