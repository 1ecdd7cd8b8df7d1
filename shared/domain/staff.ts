import { randomBytes, randomInt } from "node:crypto";

/**
 * The service's own people: reviewers decide verifications that wait in review, admins do that
 * too and read the audit trail. Each is a group of the environment's staff user pool.
 */
export const STAFF_GROUPS = ["reviewers", "admins"] as const;
export type StaffGroup = (typeof STAFF_GROUPS)[number];

export function isStaffGroup(value: string): value is StaffGroup {
  return (STAFF_GROUPS as readonly string[]).includes(value);
}

/** One character of each class the staff pool's password policy asks for, from its symbol set. */
const REQUIRED_CLASSES = ["ABCDEFGHJKLMNPQRSTUVWXYZ", "abcdefghijkmnopqrstuvwxyz", "23456789", "!@#%&*-_=+?"];

/**
 * A password the staff pool's policy accepts (12 or more characters, every class): 120 random
 * bits, plus one character of each class at a random place, so the policy is met whatever the draw.
 */
export function staffPassword(): string {
  const characters = [...randomBytes(15).toString("base64url")];
  for (const alphabet of REQUIRED_CLASSES) {
    characters.splice(randomInt(characters.length + 1), 0, alphabet[randomInt(alphabet.length)] as string);
  }
  return characters.join("");
}
