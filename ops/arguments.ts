/** Parsers for the ops command's arguments and option values: durations, ids, counts, email addresses. */
import { InvalidArgumentError } from "commander";
import { z } from "zod";
import { isId } from "#shared/domain/ids";

const DURATION = /^(\d{1,6})([smhd])$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86400 } as const;

/** `30m`, `24h`, `7d` -> seconds. */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text);
  if (!match) throw new InvalidArgumentError("expected a number and a unit: s, m, h or d (e.g. 30m, 24h, 7d)");
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

export function appId(value: string): string {
  if (!isId("app", value)) throw new InvalidArgumentError("expected an app id: app_ and 26 characters");
  return value;
}

export function eventId(value: string): string {
  if (!isId("event", value)) throw new InvalidArgumentError("expected an event id: evt_ and 26 characters");
  return value;
}

/** 1 to 1000. */
export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 1000) {
    throw new InvalidArgumentError("expected a whole number from 1 to 1000");
  }
  return number;
}

export function organizationId(value: string): string {
  if (!isId("organization", value))
    throw new InvalidArgumentError("expected an organisation id: org_ and 26 characters");
  return value;
}

export function emailAddress(value: string): string {
  if (!z.email().safeParse(value).success) throw new InvalidArgumentError("expected an email address");
  return value;
}
