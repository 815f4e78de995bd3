import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** A `node -e` program that compiles TypeScript on require (SWC, as jest does), then runs `code`. */
export function withTypeScript(code: string): string {
  return `
    const fs = require('fs');
    const swc = require('@swc/core');
    const options = JSON.parse(fs.readFileSync(${JSON.stringify(join(root, '.swcrc'))}, 'utf8'));
    delete options.$schema;
    require.extensions['.ts'] = (module, filename) => {
      const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), { ...options, filename, sourceMaps: false });
      module._compile(code, filename);
    };
    ${code}`;
}

/**
 * Node arguments that run src/main.ts or src/cli.ts (`entry`) with an in-process SWC require
 * hook: the real entry points as separate processes, without a build (a concurrent `tsc` into
 * dist/ would race other tests).
 */
function entryArgs(entry: 'main' | 'cli', args: string[]): string[] {
  const program = withTypeScript(
    `require(${JSON.stringify(join(root, 'src'))} + '/' + process.argv[1] + '.ts');`,
  );
  // `-e` leaves argv as [node, ...args]: argv[1] is the entry, then its own arguments.
  return ['-e', program, entry, ...args];
}

/**
 * The environment a kb process gets: PATH only, plus what the test says (nothing inherited).
 * One HTTP process (KB_WORKERS=1) unless the test asks for a cluster.
 */
function processEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', KB_WORKERS: '1', ...env };
}

export interface ProcessResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs src/main.ts or src/cli.ts to its end; `input` is written to its stdin (then closed).
 * `tty: true` runs it on a pseudo-terminal (util-linux `script`), where stdout and stderr
 * arrive together as stdout and `input` is answered prompt by prompt: each entry of
 * `answers` is typed once its prompt has appeared.
 */
export function runEntry(
  entry: 'main' | 'cli',
  env: Record<string, string>,
  args: string[] = [],
  options: { input?: string; answers?: { prompt: string; type: string }[] } = {},
): Promise<ProcessResult> {
  const node = [process.execPath, ...entryArgs(entry, args)];
  const child = options.answers
    ? spawn('script', ['-qec', node.map(shellQuote).join(' '), '/dev/null'], {
        cwd: root,
        env: processEnv(env),
      })
    : spawn(node[0], node.slice(1), { cwd: root, env: processEnv(env) });
  return collect(child, options);
}

function collect(
  child: ChildProcess,
  options: { input?: string; answers?: { prompt: string; type: string }[] },
): Promise<ProcessResult> {
  let stdout = '';
  let stderr = '';
  const answers = [...(options.answers ?? [])];
  let answered = 0;
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    // Type each answer only once its prompt is on the screen (before that the terminal would
    // still echo it).
    while (answers.length > 0) {
      const next = stdout.indexOf(answers[0].prompt, answered);
      if (next < 0) break;
      answered = next + answers[0].prompt.length;
      child.stdin!.write(answers.shift()!.type);
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  if (!options.answers) child.stdin!.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`process did not finish within 150 s:\n${stdout}\n${stderr}`));
    }, 150_000);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export interface RunningKb {
  /** Where the start line says to open kb (`http://localhost:<port>`). */
  url: string;
  /** The start line, parsed. */
  readyLine: Record<string, unknown>;
  /** Everything the process wrote so far (stdout, then stderr). */
  output(): string;
  stop(): Promise<void>;
  /** Sends `signal` and resolves with the exit code (or the signal that ended it). */
  signal(signal: NodeJS.Signals): Promise<number | string | null>;
  pid: number;
}

/**
 * Starts src/main.ts as its own process (PORT 0 unless `env` says otherwise) and resolves with
 * its start line once it listens; rejects with the output when it exits first.
 */
export async function startKb(env: Record<string, string>): Promise<RunningKb> {
  const child = spawn(process.execPath, entryArgs('main', []), {
    cwd: root,
    env: processEnv({ PORT: '0', HOST: '127.0.0.1', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const readyLine = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kb did not start within 150 s:\n${stdout}\n${stderr}`));
    }, 150_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((l) => l.includes('"msg":"kb is ready'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as Record<string, unknown>);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kb exited with ${code} before it was ready:\n${stdout}\n${stderr}`));
    });
  });
  return {
    url: String(readyLine.url).replace(/\/$/, ''),
    readyLine,
    output: () => stdout + stderr,
    pid: child.pid!,
    signal: (signal) =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null)
          return resolve(child.exitCode ?? child.signalCode);
        child.once('exit', (code, endedBy) => resolve(code ?? endedBy));
        child.kill(signal);
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
