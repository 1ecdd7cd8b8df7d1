import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { secretString } from "../adapters/secrets-manager.ts";
import { readSettings, type SettingName } from "../declarations/settings.ts";

/** The text of the Secrets Manager secret `secretId`, read through `client`; throws when it has none. */
export async function secretIn(client: SecretsManagerClient, secretId: string): Promise<string> {
  const secret = await secretString(client, secretId);
  if (!secret) throw new Error(`The secret ${secretId} has no string value`);
  return secret;
}

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
    return secretIn(new SecretsManagerClient({}), secretId);
  };
  return () => {
    value ??= read().catch((error: unknown) => {
      value = undefined;
      throw error;
    });
    return value;
  };
}
