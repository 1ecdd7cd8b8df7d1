/**
 * The local stand-in for the mail Cognito sends: each message one JSON file in the mailbox
 * folder, `<time>-<pool id>-<username>.json` (the time in ISO 8601's basic form, which every file
 * system takes and which sorts as time does), written whole through a rename, readable by its
 * owner only since it holds a temporary password.
 */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { writeDataFile } from "../data-file.ts";

export interface MailMessage {
  to: string;
  subject: string;
  body: string;
}

/** `2026-11-22T12:00:00.123Z` as `20261122T120000.123Z`. */
const basicIso = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, "");

/** Writes `message` into `mailbox` and answers the file's path. */
export function deliver(mailbox: string, poolId: string, username: string, message: MailMessage, at: number): string {
  mkdirSync(mailbox, { recursive: true, mode: 0o700 });
  // Usernames may hold `/` and other characters a file name may not.
  const name = (ms: number) => path.join(mailbox, `${basicIso(ms)}-${poolId}-${encodeURIComponent(username)}.json`);
  let ms = at;
  while (existsSync(name(ms))) ms += 1;
  const file = name(ms);
  writeDataFile(file, `${JSON.stringify(message, null, 2)}\n`, { secret: true });
  return file;
}

/** Cognito's default invitation, the one a pool without its own template sends. */
export function invitation(to: string, username: string, temporaryPassword: string): MailMessage {
  return {
    to,
    subject: "Your temporary password",
    body: `Your username is ${username} and temporary password is ${temporaryPassword}.`,
  };
}
