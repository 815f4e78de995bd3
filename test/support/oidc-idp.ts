import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface IdpAccount {
  password: string;
  name: string;
  email: string;
  groups: string[];
  /** The provider refuses this person (the interaction ends with access_denied). */
  blocked?: boolean;
  /** The `email_verified` claim (default true). */
  emailVerified?: boolean;
  /** The `preferred_username` claim (default: the account id). */
  username?: string;
}

export interface IdpClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
}

export type TamperMode = 'signature' | 'expired' | 'audience';

/** The test OpenID provider (test/support/oidc-idp.mjs, oidc-provider) in a child process. */
export interface TestIdp {
  issuer: string;
  setAccount(id: string, account: IdpAccount): Promise<void>;
  /** The next token response carries an ID token broken this way. */
  tamperNextToken(mode: TamperMode): Promise<void>;
  close(): Promise<void>;
}

export async function startIdp(setup: {
  clients: IdpClient[];
  accounts: Record<string, IdpAccount>;
}): Promise<TestIdp> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(__dirname, 'oidc-idp.mjs'), JSON.stringify(setup)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // oidc-provider warns that its in-memory store and development consent page are for tests
  // (they are) and about Node 20; anything else it writes is passed on.
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (!line.startsWith('oidc-provider WARNING')) process.stderr.write(`${line}\n`);
  });
  const issuer = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve((JSON.parse(line) as { issuer: string }).issuer));
    child.once('exit', (code) => reject(new Error(`the test IdP exited with ${code}`)));
  });
  const control = async (path: string, method: string, body: unknown) => {
    const res = await fetch(`${issuer}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 204) throw new Error(`IdP control ${path}: ${res.status}`);
  };
  return {
    issuer,
    setAccount: (id, account) =>
      control(`/__test/accounts/${encodeURIComponent(id)}`, 'PUT', account),
    tamperNextToken: (mode) => control('/__test/tamper', 'POST', { mode }),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
