import {
  mergeVariables,
  referencedVariableNames,
  substituteVariables,
  variableProblems,
} from './variables';

describe('variables', () => {
  it('finds referenced names in order', () => {
    expect(
      referencedVariableNames('Hi {{name}}, {{ team }} and {{name}} {{bad name}} {{9x}}'),
    ).toEqual(['name', 'team']);
  });

  it('substitutes known names once and leaves unknown ones', () => {
    expect(substituteVariables('{{a}} {{ b }} {{c}}', { a: '1', b: '{{a}}' })).toBe(
      '1 {{a}} {{c}}',
    );
    expect(substituteVariables('no braces', { a: '1' })).toBe('no braces');
    expect(substituteVariables('{{constructor}}', {})).toBe('{{constructor}}');
  });

  it('page values override site-wide ones', () => {
    expect(mergeVariables({ a: 'site', b: 'site' }, { b: 'page' })).toEqual({
      a: 'site',
      b: 'page',
    });
  });

  it('validates names and values, one problem per bad entry', () => {
    expect(variableProblems({ ok: 'x', 'bad name': 'x', n: 3, long: 'x'.repeat(10_001) })).toEqual([
      expect.objectContaining({ field: 'variables.bad name', code: 'invalid_variable_name' }),
      expect.objectContaining({ field: 'variables.n', code: 'not_a_string' }),
      expect.objectContaining({ field: 'variables.long', code: 'value_too_long' }),
    ]);
    expect(variableProblems([])).toEqual([expect.objectContaining({ code: 'not_an_object' })]);
    expect(variableProblems({ a_b: 'x'.repeat(10_000), _x: '' })).toEqual([]);
  });
});
