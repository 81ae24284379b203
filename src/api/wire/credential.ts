// A bearer token had when it is first needed rather than known from the start: a password manager's or
// a vault's command prints it (config/token-command.ts). It is asked for once a run, and asked again at
// most once, after a 401, when the token may have been rotated meanwhile.

export interface Credential {
  /** The token, asked for on the first call; every later call gets the same one until `renew`. */
  token(): Promise<string>;
  /** Asks for the token again (after a 401); false when it was asked again already this run. */
  renew(): Promise<boolean>;
  /** The token when it has been had, for messages that must mask it; undefined before. */
  readonly known: string | undefined;
}
