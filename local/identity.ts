/**
 * The local identity endpoint: the user pools' API as Cognito serves it (the part this service
 * uses), so the production verifier, the SDK and the review console work against it unchanged.
 * A small issuer rather than cognito-local, which enforces neither password policy, disabled
 * users nor auth flows, and brings the v2 AWS SDK (about 150 MB) along.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { type LocalCredentials, serveOnLoopback } from "./engines.ts";
import type { IdentityContext, PoolConfig } from "./identity/context.ts";
import { identityServer } from "./identity/server.ts";
import { hashPassword, IdentityStore } from "./identity/store.ts";
import { loadSigner } from "./identity/tokens.ts";

export type { PoolConfig } from "./identity/context.ts";

export interface IdentityOptions {
  /** 0 for any free port. */
  port: number;
  /** Where users, sign-ins and the signing key are kept; in memory without one. */
  dataFile?: string;
  pools: readonly PoolConfig[];
  /** The access key the admin API's calls must be signed with, as Cognito takes them only with AWS credentials. */
  credentials: LocalCredentials;
  /**
   * The origins of the pages that call the pools from a browser (`http://127.0.0.1:3004`): only
   * they get CORS headers. Without it, pages served from loopback (`http://127.0.0.1:<port>`,
   * `http://localhost:<port>`), as tests serve them on ports of their own.
   */
  allowedOrigins?: readonly string[];
  /**
   * The folder the mail Cognito would send is written to (invitations with their temporary
   * password), one JSON file per message; without one, no mail is written anywhere.
   */
  mailbox?: string;
  /** Epoch milliseconds; a test moves it to issue tokens in the past. */
  now?: () => number;
}

/** Cognito's pool ids name their region first; the issuer, and so the verifier, depend on it. */
const POOL_ID = /^[a-z]{2}(-[a-z]+)+-\d_[0-9A-Za-z]+$/;

const LOOPBACK_PAGE = /^http:\/\/(127\.0\.0\.1|localhost)(:\d{1,5})?$/;

function originCheck(allowed: readonly string[] | undefined): (origin: string) => boolean {
  if (allowed === undefined) return (origin) => LOOPBACK_PAGE.test(origin);
  const origins = new Set(allowed.map((origin) => new URL(origin).origin));
  return (origin) => origins.has(origin);
}

export async function startIdentity(options: IdentityOptions): Promise<{ url: string; stop(): Promise<void> }> {
  const clientIds = options.pools.flatMap((pool) => pool.clientIds);
  for (const pool of options.pools) {
    if (!POOL_ID.test(pool.id)) throw new Error(`Pool id ${pool.id} is not region-style, as Cognito's are`);
  }
  if (new Set(clientIds).size !== clientIds.length) throw new Error("A client id belongs to one pool only");
  const store = IdentityStore.load(options.dataFile);
  if (options.mailbox) mkdirSync(options.mailbox, { recursive: true, mode: 0o700 });
  const context: IdentityContext = {
    pools: new Map(options.pools.map((pool) => [pool.id, pool])),
    store,
    adminCredentials: options.credentials,
    signer: await loadSigner(store),
    sessions: new Map(),
    unknownSignIns: new Map(),
    dummyPasswordHash: await hashPassword(randomBytes(32).toString("base64url")),
    mailbox: options.mailbox,
    now: options.now ?? Date.now,
  };
  const server = identityServer(context, originCheck(options.allowedOrigins));
  return serveOnLoopback(server, options.port);
}
