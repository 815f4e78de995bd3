import { mentionsIn } from './mentions';

describe('mentionsIn', () => {
  it('finds each mentioned username once, not addresses or code', () => {
    expect(
      mentionsIn(
        'Hi @alice and @bob.smith. Mail me@example.org, `@notme`, again @Alice!\n```\n@code\n```\n(@carol_1)',
      ),
    ).toEqual(['alice', 'bob.smith', 'carol_1']);
    expect(mentionsIn('no mentions here')).toEqual([]);
  });
});
