import {
  hostPart,
  newLeaseOwner,
  ownerIsGoneHere,
  parseLeaseOwner,
  processAlive,
} from './lease-owner';

describe('import job lease owners', () => {
  it('records incarnation, pid and host in at most 64 characters', () => {
    const owner = newLeaseOwner(4_294_967_295, hostPart('h'.repeat(253)));
    expect(owner.length).toBeLessThanOrEqual(64);
    expect(parseLeaseOwner(owner)).toEqual({
      incarnation: expect.stringMatching(/^[0-9a-f]{16}$/),
      pid: 4_294_967_295,
      host: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(parseLeaseOwner(newLeaseOwner(12, 'kb-1'))).toEqual(
      expect.objectContaining({ pid: 12, host: 'kb-1' }),
    );
    expect(newLeaseOwner(12, 'kb-1')).not.toBe(newLeaseOwner(12, 'kb-1'));
  });

  it('reads an older bare UUID, or nothing, as no owner it can judge', () => {
    expect(parseLeaseOwner('9b2f5a43-2d5e-4a38-9b7e-2f7c1d9d1b20')).toBeNull();
    expect(parseLeaseOwner(null)).toBeNull();
  });

  it('judges an owner gone only on this host: a dead pid, or this pid under another incarnation', () => {
    const self = newLeaseOwner(100, 'kb-1');
    const alive = (pid: number) => pid === 200;
    expect(ownerIsGoneHere(newLeaseOwner(300, 'kb-1'), self, alive)).toBe(true);
    expect(ownerIsGoneHere(newLeaseOwner(100, 'kb-1'), self, alive)).toBe(true);
    expect(ownerIsGoneHere(newLeaseOwner(200, 'kb-1'), self, alive)).toBe(false);
    expect(ownerIsGoneHere(self, self, alive)).toBe(false);
    expect(ownerIsGoneHere(newLeaseOwner(300, 'kb-2'), self, alive)).toBe(false);
    expect(ownerIsGoneHere('9b2f5a43-2d5e-4a38-9b7e-2f7c1d9d1b20', self, alive)).toBe(false);
    expect(ownerIsGoneHere(null, self, alive)).toBe(false);
  });

  it('sees this process alive and an unused pid not', () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(2 ** 22 + 12345)).toBe(false);
  });
});
