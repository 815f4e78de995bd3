import type { OAuthRecordsRepository } from './oauth-records.repository';

type Payload = Record<string, unknown>;

/**
 * oidc-provider's storage interface (its `Adapter`: one instance per model name) over
 * `oauth_records`, so codes, tokens, grants and registered clients live in kb's database (either
 * SQLite or MariaDB) and any instance can serve any request. A banned client is unknown to the
 * provider: it can neither authorise nor use a token.
 */
export function oauthAdapterClass(records: OAuthRecordsRepository) {
  return class OAuthAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      await records.upsert(this.model, id, payload, expiresAt);
    }

    async find(id: string): Promise<Payload | undefined> {
      return this.present(await records.find(this.model, id));
    }

    async findByUserCode(userCode: string): Promise<Payload | undefined> {
      return this.present(await records.findBy(this.model, 'user_code', userCode));
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      return this.present(await records.findBy(this.model, 'uid', uid));
    }

    async consume(id: string): Promise<void> {
      await records.consume(this.model, id);
    }

    async destroy(id: string): Promise<void> {
      await records.destroy(this.model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await records.revokeGrant(grantId);
    }

    private present(row: Awaited<ReturnType<OAuthRecordsRepository['find']>>): Payload | undefined {
      if (!row || row.bannedAt) return undefined;
      if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return undefined;
      const payload = { ...row.payload };
      if (row.consumedAt) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
      return payload;
    }
  };
}
