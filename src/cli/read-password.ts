/**
 * Passwords for the CLI never come from argv (other users see it in `ps`, the shell keeps it in
 * its history): on a terminal they are typed at a prompt that does not echo them, asked twice;
 * otherwise the first line of stdin is the password (`printf '%s\n' "$PW" | npm run cli -- ...`).
 */

export interface PasswordInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

export class PasswordInputError extends Error {}

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const BACKSPACE = new Set(['\u0008', '\u007f']);

/** One password from the terminal (hidden) or from stdin's first line. */
export async function readPassword(
  input: PasswordInput,
  output: NodeJS.WritableStream,
  prompt = 'Password: ',
): Promise<string> {
  if (!input.isTTY || !input.setRawMode) return firstLine(input);
  const first = await promptHidden(input, output, prompt);
  const again = await promptHidden(input, output, 'Repeat it: ');
  if (first !== again) throw new PasswordInputError('the two passwords differ; nothing changed');
  return first;
}

/** Reads stdin to its end (or its first line break) and answers the first line. */
function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const done = () => {
      input.removeListener('data', onData);
      input.removeListener('end', done);
      input.removeListener('error', reject);
      input.pause();
      const line = text.split(/\r?\n/)[0];
      if (line === '')
        reject(
          new PasswordInputError(
            'no password on stdin: type it at a terminal, or pipe it (printf \'%s\\n\' "$PASSWORD" | npm run cli -- ...)',
          ),
        );
      else resolve(line);
    };
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      if (/\r?\n/.test(text)) done();
    };
    input.on('data', onData);
    input.once('end', done);
    input.once('error', reject);
    input.resume();
  });
}

/** A prompt that shows nothing of what is typed; Ctrl-C or Ctrl-D give up. */
function promptHidden(
  input: PasswordInput,
  output: NodeJS.WritableStream,
  prompt: string,
): Promise<string> {
  // Echo off before the prompt shows: whatever is typed after it is never displayed.
  input.setRawMode!(true);
  output.write(prompt);
  input.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      input.removeListener('data', onData);
      input.setRawMode!(false);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString()) {
        if (char === '\r' || char === '\n') return finish();
        if (char === CTRL_C || char === CTRL_D)
          return finish(new PasswordInputError('cancelled; nothing changed'));
        if (BACKSPACE.has(char)) typed = [...typed].slice(0, -1).join('');
        else if (char >= ' ') typed += char;
      }
    };
    input.on('data', onData);
  });
}
