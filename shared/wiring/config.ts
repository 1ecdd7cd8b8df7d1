/**
 * The wiring: which adapter stands behind which port, built from a function's declared
 * settings. Each module here builds one kind of adapter, so a function's bundle holds only
 * the adapters its handler asks for. This one reads and checks the settings.
 */
import { systemClock } from "../adapters/system-clock.ts";
import type { FunctionDeclaration } from "../declarations/function-definition.ts";
import { readSettings, type SettingName } from "../declarations/settings.ts";
import type { Destinations, Environment } from "../domain/environments.ts";
import type { Clock } from "../ports/clock.ts";

/** What a function's configuration reads of its declaration (`declarations/functions/<name>.ts`). */
export type DeclaredSettings = Pick<FunctionDeclaration, "name" | "settings">;

export interface FunctionConfig {
  name: string;
  /** Whether the function declares `key`. */
  declares(key: SettingName): boolean;
  /** A declared setting; throws for one the function does not declare, or that has no value. */
  setting(key: SettingName): string;
  /** A declared setting that may have no value (its default then applies); throws for one the function does not declare. */
  optional(key: SettingName): string | undefined;
  environment(): Environment;
  /** Where webhooks may go: public addresses unless the local runtime allows loopback too. */
  destinations(): Destinations;
}

/** A function's settings, read and checked now, so a missing one fails the cold start. */
export function functionConfig({ name, settings: declared }: DeclaredSettings): FunctionConfig {
  const settings: Partial<Record<SettingName, string>> = readSettings(declared);
  const declares = (key: SettingName): boolean => declared.includes(key);
  const optional = (key: SettingName): string | undefined => {
    if (!declares(key)) throw new Error(`Function ${name} does not declare ${key}`);
    return settings[key];
  };
  const setting = (key: SettingName): string => {
    const value = optional(key);
    if (value === undefined) throw new Error(`Function ${name} does not declare ${key}`);
    return value;
  };
  // Checked against the environments when the settings were read.
  const destinations = (): Destinations => {
    if (!declares("WEBHOOK_DESTINATIONS")) throw new Error(`Function ${name} does not declare WEBHOOK_DESTINATIONS`);
    return (settings.WEBHOOK_DESTINATIONS as Destinations | undefined) ?? "public";
  };
  return { name, declares, setting, optional, environment: () => setting("ENVIRONMENT") as Environment, destinations };
}

/** Every function's clock. */
export const clock: Clock = systemClock;
