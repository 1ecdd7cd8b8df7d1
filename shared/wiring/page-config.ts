/**
 * A web page's settings: plain text that the stack or the local runtime sets (where the page's
 * files are, its user pool's client, the origins it may reach), read without the settings' zod
 * rules, so a page function loads little more than its files and the logger. Only what the
 * function declares is read; the page reads what it needs at cold start, so a missing one fails
 * it there, as with `functionConfig`, and an address is checked where the page's
 * Content-Security-Policy is made.
 */
import type { FunctionDeclaration } from "../declarations/function-definition.ts";
import type { SettingName } from "../declarations/settings.ts";

export interface PageConfig {
  /** A declared setting with a value; throws for one the function does not declare, or that has none. */
  setting(key: SettingName): string;
  /** A declared setting that may have no value; throws for one the function does not declare. */
  optional(key: SettingName): string | undefined;
}

/** The settings of a page function (`backoffice-console`, `portal-page`), as its declaration names them. */
export function pageConfig({ name, settings: declared }: Pick<FunctionDeclaration, "name" | "settings">): PageConfig {
  const optional = (key: SettingName): string | undefined => {
    if (!declared.includes(key)) throw new Error(`Function ${name} does not declare ${key}`);
    return process.env[key] || undefined;
  };
  const setting = (key: SettingName): string => {
    const value = optional(key);
    if (value === undefined) throw new Error(`Invalid configuration: ${key} has no value`);
    return value;
  };
  return { setting, optional };
}
