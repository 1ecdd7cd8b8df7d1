import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { secretString } from "../adapters/secrets-manager.ts";
import { readSettings, type SettingName } from "../declarations/settings.ts";

/**
 * A secret from the setting `local` (the local runtime) or from the Secrets Manager secret the
 * setting `arn` names (AWS), read at first use and kept; a failed read is not kept, so the
 * next use asks again.
 */
export function settingOrSecret(local: SettingName, arn: SettingName): () => Promise<string> {
  let value: Promise<string> | undefined;
  const read = async (): Promise<string> => {
    const settings: Partial<Record<SettingName, string>> = readSettings([local, arn]);
    const inline = settings[local];
    if (inline) return inline;
    const secretId = settings[arn];
    if (!secretId) throw new Error(`Invalid configuration: set ${local} or ${arn}`);
    const secret = await secretString(new SecretsManagerClient({}), secretId);
    if (!secret) throw new Error(`The secret ${arn} names has no string value`);
    return secret;
  };
  return () => {
    value ??= read().catch((error: unknown) => {
      value = undefined;
      throw error;
    });
    return value;
  };
}
