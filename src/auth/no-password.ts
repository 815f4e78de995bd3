/**
 * The password hash of an account that never has a usable password: argon2 verification of it
 * always fails, so a person provisioned by single sign-on or the directory signs in only
 * through it (until an administrator sets a password). A module of its own: the mapper and the
 * provisioning both read it, and neither may import the other.
 */
export const NO_PASSWORD = '!sso';
