/**
 * Seals secrets that must be read back (webhook signing secrets), so no table holds them in
 * plain text. The key lives outside the tables and may be fetched on first use.
 */
export interface Sealer {
  seal(plain: string): Promise<string>;
  open(sealed: string): Promise<string>;
}
