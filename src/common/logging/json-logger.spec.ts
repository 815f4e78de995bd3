import { JsonLogger } from './json-logger';

function capture(run: () => void): Record<string, unknown>[] {
  const lines: string[] = [];
  const spy = jest
    .spyOn(process.stdout, 'write')
    .mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('JsonLogger', () => {
  it('writes one JSON object per line with level, context and the fields', () => {
    const [line] = capture(() =>
      new JsonLogger('info').log({ msg: 'request', status: 200 }, 'HTTP'),
    );
    expect(line).toEqual({
      time: expect.any(String),
      level: 'info',
      context: 'HTTP',
      msg: 'request',
      status: 200,
    });
  });

  it('drops lines below its level', () => {
    expect(capture(() => new JsonLogger('warn').log('hidden'))).toEqual([]);
    expect(capture(() => new JsonLogger('silent').error('hidden'))).toEqual([]);
  });

  it('keeps the message and stack of an Error', () => {
    const [line] = capture(() => new JsonLogger('info').error(new Error('boom'), 'Scheduler'));
    expect(line).toEqual(
      expect.objectContaining({
        level: 'error',
        context: 'Scheduler',
        msg: 'boom',
        error: 'Error',
        stack: expect.stringContaining('boom'),
      }),
    );
  });

  it("moves Nest's start-up lines (modules, mapped routes) to debug", () => {
    const boot = (level: 'info' | 'debug') =>
      capture(() => {
        const logger = new JsonLogger(level);
        logger.log('Mapped {/api/pages, GET} route', 'RouterExplorer');
        logger.log('PagesController {/api/pages}:', 'RoutesResolver');
        logger.log('AppModule dependencies initialized', 'InstanceLoader');
      });
    expect(boot('info')).toEqual([]);
    expect(boot('debug').map((l) => [l.level, l.context])).toEqual([
      ['debug', 'RouterExplorer'],
      ['debug', 'RoutesResolver'],
      ['debug', 'InstanceLoader'],
    ]);
  });

  it('writes audit lines at every level but silent', () => {
    const line = { msg: 'token.created', event: 'token.created' };
    expect(capture(() => new JsonLogger('error').log(line, 'audit'))).toEqual([
      expect.objectContaining({ level: 'info', context: 'audit', event: 'token.created' }),
    ]);
    expect(capture(() => new JsonLogger('silent').log(line, 'audit'))).toEqual([]);
  });
});
