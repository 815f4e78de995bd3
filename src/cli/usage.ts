/** `npm run cli` administration commands (src/cli/admin-cli.ts). */
export const ADMIN_USAGE = `Administration (on the server, with its environment): npm run cli -- <command> [options]
  user:create --username NAME --role admin|editor|reader [--groups a,b] [--display-name TEXT]
  user:set-password --username NAME          ends the user's sessions
  user:role --username NAME --role admin|editor|reader
  user:disable --username NAME               ends their sessions; their tokens stop working
  user:enable --username NAME
  user:unlock --username NAME                clears the failed sign-in counter
  user:list
  group:create --name NAME
  media:migrate --to s3                      copies local media to the S3_* bucket, verified
                                             by SHA-256; run again to resume
Passwords are typed at a prompt, or read from the first line of stdin:
  printf '%s\\n' "$PASSWORD" | npm run cli -- user:set-password --username ada`;
