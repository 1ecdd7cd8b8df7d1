import type { StaffGroup } from "../domain/staff.ts";

/** The user pools of an environment: the service's staff, and the customers' people. */
export type UserPool = "staff" | "portal";

/** Who a verified access token speaks for. */
export interface Principal {
  pool: UserPool;
  sub: string;
  username: string;
  groups: readonly string[];
}

export interface AccessTokenVerifier {
  /**
   * The principal of a valid, live access token of the pool's client; undefined for any other
   * token. Throws only when the pool cannot be asked (its keys or the user lookup unreachable).
   */
  verify(token: string): Promise<Principal | undefined>;
}

export interface StaffMember {
  username: string;
  sub: string;
  enabled: boolean;
  /** The pool's account status, e.g. `FORCE_CHANGE_PASSWORD` until the first sign-in, then `CONFIRMED`. */
  status: string;
  groups: string[];
  created_at: string;
}

/** The staff user pool, as the ops command manages it. */
export interface StaffDirectory {
  /** Creates the user with a temporary password, shown once: the first sign-in sets a new one, then TOTP. */
  add(input: {
    username: string;
    email?: string;
    groups: readonly StaffGroup[];
  }): Promise<{ member: StaffMember; temporaryPassword: string }>;
  /** Disables the user and signs them out everywhere: their refresh tokens stop working. */
  disable(username: string): Promise<void>;
  /** Lets a disabled user sign in again. */
  enable(username: string): Promise<void>;
  /** Takes the user out of `group`; tokens issued already keep it until they expire. */
  removeFromGroup(username: string, group: StaffGroup): Promise<void>;
  list(): Promise<StaffMember[]>;
}

/**
 * A person of the customer pool as a membership names them: by their `sub`, which is who they
 * are, and their username, which is how they are called and may name someone else later (a user
 * deleted from the pool frees it).
 */
export interface PoolPerson {
  sub: string;
  username: string;
}

/**
 * The customer pool, as the portal and the ops command manage an organisation's people. Every
 * call about a person acts on the pool user whose `sub` is theirs, never on whoever holds their
 * username now.
 */
export interface PortalDirectory {
  /**
   * Creates the user and has the pool send them its invitation, with a temporary password, at
   * `email`: nobody else sees it. Refuses a username the pool has already, without saying whose.
   */
  invite(input: { username: string; email: string }): Promise<StaffMember>;
  /** Whether the person has signed in and set their own password since their invitation; true once they are gone from the pool. */
  hasSignedIn(person: PoolPerson): Promise<boolean>;
  /** Disables the person and signs them out everywhere: their refresh tokens stop working. */
  disable(person: PoolPerson): Promise<void>;
  /** Signs the person out everywhere and deletes them, freeing the username; nothing when they are gone already. */
  remove(person: PoolPerson): Promise<void>;
}
