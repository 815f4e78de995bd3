// `kb` and `npm run cli`: the client commands (push, pull, links: HTTP against a running kb,
// no database, nothing of Nest loaded) or the administration commands (src/cli/admin-cli.ts,
// on the server's database).
import { ADMIN_USAGE } from './cli/usage';

const CLIENT_COMMANDS = ['push', 'pull', 'links'];
const HELP = [undefined, '--help', '-h', 'help'];

const [command] = process.argv.slice(2);
if (HELP.includes(command) || CLIENT_COMMANDS.includes(command)) {
  void import('./client/kb-client').then(async ({ runClient }) => {
    const help = HELP.includes(command);
    const code = await runClient(help ? ['--help'] : process.argv.slice(2), {
      out: process.stdout,
      err: process.stderr,
      env: process.env,
    });
    if (help) process.stderr.write(`\n${ADMIN_USAGE}\n`);
    process.exit(command === undefined ? 64 : code);
  });
} else {
  void import('./cli/admin-cli');
}
