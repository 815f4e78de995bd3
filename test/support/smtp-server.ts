import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from './ports';

/** One message the test server accepted, parsed. */
export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
}

export interface TestSmtpServer {
  /** `smtp://<user>:<password>@127.0.0.1:<port>`: kb's SMTP_URL. */
  url: string;
  user: string;
  password: string;
  /** Every message accepted so far, in order. */
  messages: ReceivedMail[];
  /** The messages to `address`. */
  to(address: string): ReceivedMail[];
  /** Waits for the `nth` (1-based) message to `address`. */
  waitFor(address: string, nth?: number, timeoutMs?: number): Promise<ReceivedMail>;
  /** The next `count` deliveries are refused with a temporary error (451), as greylisting does. */
  refuseNext(count: number): void;
  /** How many deliveries were refused so far. */
  refused: number;
  close(): Promise<void>;
}

/** The first link of a message's plain text that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}\\S+`).exec(mail.text);
  if (!match) throw new Error(`no link starting with ${prefix} in:\n${mail.text}`);
  return match[0];
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 that requires a login (plain, over the
 * loopback) and keeps what it receives, parsed by mailparser.
 */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const user = 'kb-mailer';
  const password = 'smtp-secret-never-logged';
  const messages: ReceivedMail[] = [];
  let refuse = 0;
  const state = { refused: 0 };
  const server = new SMTPServer({
    secure: false,
    // No STARTTLS: the test server has no certificate; kb's real servers offer it.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) {
        callback(null, { user });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onRcptTo(_address, _session, callback) {
      if (refuse > 0) {
        refuse--;
        state.refused++;
        const error = new Error('Try again later') as Error & { responseCode: number };
        error.responseCode = 451;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const to = (address: string) => messages.filter((m) => m.to.includes(address));
  return {
    url: `smtp://${user}:${password}@127.0.0.1:${port}`,
    user,
    password,
    messages,
    to,
    async waitFor(address, nth = 1, timeoutMs = 30_000) {
      const started = Date.now();
      for (;;) {
        const found = to(address);
        if (found.length >= nth) return found[nth - 1];
        if (Date.now() - started > timeoutMs) {
          throw new Error(`no message #${nth} to ${address} within ${timeoutMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    refuseNext(count) {
      refuse = count;
    },
    get refused() {
      return state.refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
