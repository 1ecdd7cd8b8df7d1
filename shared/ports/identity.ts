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
  list(): Promise<StaffMember[]>;
}
