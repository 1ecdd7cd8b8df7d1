/**
 * Whose secret is sealed: a sealed value opens only for the same app, and a value sealed for a
 * verification (an identity number sent on create) only for that verification.
 */
export interface SealContext {
  appId: string;
  verificationId?: string;
}

/**
 * Seals secrets that must be read back (webhook signing secrets), so no table holds them in
 * plain text. The key lives outside the tables; a sealed value names the key that sealed it
 * and opens only with the context it was sealed with, so one app's secret moved to another
 * app's item does not open.
 */
export interface Sealer {
  seal(plain: string, context: SealContext): Promise<string>;
  open(sealed: string, context: SealContext): Promise<string>;
}
