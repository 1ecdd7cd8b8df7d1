/**
 * Time-based one-time passwords as authenticator apps compute them (RFC 6238): HMAC-SHA1 over
 * the 30-second step, six digits, with the secret in base32 as Cognito hands it out.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const STEP_MS = 30_000;

export function toBase32(bytes: Uint8Array): string {
  let text = "";
  let value = 0;
  let bits = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    for (; bits >= 5; bits -= 5) text += BASE32[(value >>> (bits - 5)) & 31];
  }
  return bits > 0 ? text + BASE32[(value << (5 - bits)) & 31] : text;
}

function fromBase32(text: string): Buffer {
  const bytes: number[] = [];
  let value = 0;
  let bits = 0;
  for (const char of text.replace(/=+$/, "").toUpperCase()) {
    value = ((value << 5) | BASE32.indexOf(char)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >>> bits) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** 160 random bits, the length Cognito's secret codes have (32 base32 characters). */
export function newTotpSecret(): string {
  return toBase32(randomBytes(20));
}

/** The code an authenticator shows at `atMs` (epoch milliseconds). */
export function totpCode(secret: string, atMs: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / STEP_MS)));
  const mac = createHmac("sha1", fromBase32(secret)).update(counter).digest();
  const offset = (mac.at(-1) ?? 0) & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** Whether `code` is the current step's, or an adjacent one's: a phone's clock may be a little off. */
export function totpMatches(secret: string, code: string, atMs: number): boolean {
  const given = Buffer.from(code);
  return [-1, 0, 1].some((step) => {
    const expected = Buffer.from(totpCode(secret, atMs + step * STEP_MS));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}
