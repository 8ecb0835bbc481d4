/**
 * The sign-in flags of `inspect`, `call`, `check` and `record` (a URL target's `auth` option).
 * A secret never comes from a flag's value, which any user of the machine sees in `ps`: a token,
 * a client secret or a private key is read from an environment variable or a file named by the
 * flag.
 */
import { readFileSync } from "node:fs";
import type { ConnectAuth, SettingNamer } from "../../driver/auth/options.js";
import { UsageError } from "../command.js";

export const SIGN_IN_OPTIONS = {
  "sign-in": { type: "boolean" },
  "auth-token-env": { type: "string" },
  "auth-token-file": { type: "string" },
  "auth-grant": { type: "string" },
  "client-id": { type: "string" },
  "client-secret-env": { type: "string" },
  "client-secret-file": { type: "string" },
  "private-key-file": { type: "string" },
  "signing-algorithm": { type: "string" },
  "client-metadata-url": { type: "string" },
  "redirect-url": { type: "string" },
  scope: { type: "string" },
  "auth-attempts": { type: "string" },
} as const;

export const SIGN_IN_HELP = `Signing in to an OAuth-protected URL target (secrets come from the environment or a file,
never from a flag's value, which shows in ps):
  --sign-in            Sign in when the server asks: authorization code with PKCE, headless,
                       dynamic registration
  --auth-token-env <NAME>        A bearer token from environment variable NAME
  --auth-token-file <path>       A bearer token from a file
  --client-id <id>               A pre-registered client; its secret from
                                 --client-secret-env <NAME> or --client-secret-file <path>
  --auth-grant client_credentials  A machine client: --client-id with a secret or a key
  --private-key-file <path>      A PKCS#8 PEM key for private_key_jwt
  --signing-algorithm <alg>      The key's algorithm (default ES256)
  --client-metadata-url <url>    A Client ID Metadata Document URL, used as the client id
  --scope "<scopes>"             Scopes to ask for when the server names none
  --redirect-url <url>           The redirect URI (default http://127.0.0.1/callback)
  --auth-attempts <n>            Sign-ins allowed for one request (default 3)`;

/** Each `auth` setting's flag, for messages that name one. */
export const flagName: SettingNamer = (setting) => SETTING_FLAGS[setting] ?? `auth.${setting}`;
const SETTING_FLAGS: Partial<Record<keyof ConnectAuth, string>> = {
  token: "--auth-token-env / --auth-token-file",
  grant: "--auth-grant",
  clientId: "--client-id",
  clientSecret: "--client-secret-env / --client-secret-file",
  privateKey: "--private-key-file",
  signingAlgorithm: "--signing-algorithm",
  clientMetadataUrl: "--client-metadata-url",
  redirectUrl: "--redirect-url",
  scope: "--scope",
  maxAttempts: "--auth-attempts",
};

type SignInFlags = { [Key in keyof typeof SIGN_IN_OPTIONS]?: (typeof SIGN_IN_OPTIONS)[Key]["type"] extends "boolean" ? boolean : string };

/** The `auth` the flags ask for, or undefined when none is given; throws `UsageError` for a flag that cannot work. */
export function parseSignInFlags(flags: SignInFlags, env: NodeJS.ProcessEnv = process.env): ConnectAuth | undefined {
  const given = Object.keys(SIGN_IN_OPTIONS).filter((name) => flags[name as keyof SignInFlags] !== undefined && flags[name as keyof SignInFlags] !== false);
  if (given.length === 0) return undefined;
  const token = secret(flags, "auth-token", env);
  const clientSecret = secret(flags, "client-secret", env);
  const privateKey = flags["private-key-file"] === undefined ? undefined : readSecretFile("--private-key-file", flags["private-key-file"]);
  const grant = flags["auth-grant"];
  if (grant !== undefined && grant !== "authorization_code" && grant !== "client_credentials") throw new UsageError(`--auth-grant must be authorization_code or client_credentials, got "${grant}"`);
  const attempts = flags["auth-attempts"];
  const maxAttempts = attempts === undefined ? undefined : /^\d+$/.test(attempts) ? Number(attempts) : Number.NaN;
  if (maxAttempts !== undefined && !(maxAttempts >= 1 && maxAttempts <= 10)) throw new UsageError(`--auth-attempts must be a whole number from 1 to 10, got "${attempts}"`);
  const auth: ConnectAuth = {
    ...(token === undefined ? {} : { token }),
    ...(grant === undefined ? {} : { grant }),
    ...(flags["client-id"] === undefined ? {} : { clientId: flags["client-id"] }),
    ...(clientSecret === undefined ? {} : { clientSecret }),
    ...(privateKey === undefined ? {} : { privateKey }),
    ...(flags["signing-algorithm"] === undefined ? {} : { signingAlgorithm: flags["signing-algorithm"] }),
    ...(flags["client-metadata-url"] === undefined ? {} : { clientMetadataUrl: flags["client-metadata-url"] }),
    ...(flags["redirect-url"] === undefined ? {} : { redirectUrl: flags["redirect-url"] }),
    ...(flags.scope === undefined ? {} : { scope: flags.scope }),
    ...(maxAttempts === undefined ? {} : { maxAttempts }),
  };
  return auth;
}

/** A secret from `--<name>-env NAME` or `--<name>-file PATH` (one of them), without its trailing newline. */
function secret(flags: SignInFlags, name: "auth-token" | "client-secret", env: NodeJS.ProcessEnv): string | undefined {
  const variable = flags[`${name}-env`];
  const file = flags[`${name}-file`];
  if (variable !== undefined && file !== undefined) throw new UsageError(`give --${name}-env or --${name}-file, not both`);
  if (variable !== undefined) {
    const value = env[variable];
    if (value === undefined || value.trim() === "")
      throw new UsageError(`--${name}-env ${variable}: the environment variable ${variable} is not set (or empty); it holds the secret, the flag only names it`);
    return value.trim();
  }
  return file === undefined ? undefined : readSecretFile(`--${name}-file`, file);
}

function readSecretFile(flag: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`${flag} ${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  if (text.trim() === "") throw new UsageError(`${flag} ${path}: the file is empty`);
  return text.trim();
}
