import { LiveStore } from './live-store';

describe('LiveStore', () => {
  it('keeps the newest change per page slug and tells its listeners', () => {
    const store = new LiveStore();
    const heard: number[] = [];
    const stop = store.subscribe(() => heard.push(heard.length));
    store.record({
      id: '7',
      type: 'page.updated',
      occurredAt: '',
      data: { slug: 'a/b', revision: 3, actorId: 'u1' },
    });
    store.record({ id: '8', type: 'import.finished', occurredAt: '', data: {} });
    store.record({ id: '9', type: 'page.binned', occurredAt: '', data: { slug: 'a/b' } });
    expect(store.change('a/b')).toEqual({
      type: 'page.binned',
      revision: null,
      actorId: null,
      seq: 9,
    });
    expect(store.change('other')).toBeUndefined();
    // Events about no page (an import) change no page's entry and wake nobody.
    expect(heard).toEqual([0, 1]);
    stop();
    store.record({ id: '10', type: 'page.created', occurredAt: '', data: { slug: 'c' } });
    expect(heard).toEqual([0, 1]);
  });
});
