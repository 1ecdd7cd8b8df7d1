import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { readConfig } from "./config.ts";
import { SecretBox } from "./secret-box.ts";

/**
 * The SecretBox for this process: key material from `SECRETS_KEY` (the local runtime) or
 * from the Secrets Manager secret `SECRETS_KEY_ARN` names (AWS), read once.
 */
let box: Promise<SecretBox> | undefined;

export function secretBox(): Promise<SecretBox> {
  box ??= (async () => {
    const { SECRETS_KEY, SECRETS_KEY_ARN } = readConfig(["SECRETS_KEY", "SECRETS_KEY_ARN"]);
    if (SECRETS_KEY) return new SecretBox(SECRETS_KEY);
    if (!SECRETS_KEY_ARN) throw new Error("Invalid configuration: set SECRETS_KEY or SECRETS_KEY_ARN");
    const { SecretString } = await new SecretsManagerClient({}).send(
      new GetSecretValueCommand({ SecretId: SECRETS_KEY_ARN }),
    );
    if (!SecretString) throw new Error("The secrets key secret has no string value");
    return new SecretBox(SecretString);
  })();
  return box;
}
