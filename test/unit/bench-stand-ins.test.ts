/** The cold-start bench loads every bundle with stand-in settings: each function's required ones, in their formats. */
import { describe, expect, it } from "vitest";
import { FUNCTIONS } from "#shared/declarations/functions";
import { isOptionalSetting, readSettings } from "#shared/declarations/settings";
import { STAND_IN_SETTINGS } from "../support/stand-in-settings.ts";

describe("the cold-start bench's stand-in settings", () => {
  it.each(Object.entries(FUNCTIONS))(
    "start %s: every setting it must have has a stand-in its parser takes",
    (_name, definition) => {
      const env = { ...STAND_IN_SETTINGS, WEB_ASSETS: "/var/task/web" };
      const missing = definition.settings.filter((setting) => !isOptionalSetting(setting) && !(setting in env));
      expect(missing).toEqual([]);
      expect(() => readSettings(definition.settings, env)).not.toThrow();
    },
  );
});
