import { GetSecretValueCommand, type SecretsManagerClient } from "@aws-sdk/client-secrets-manager";

/** The text a Secrets Manager secret holds (the sealing key's material in AWS), if it has any. */
export async function secretString(client: SecretsManagerClient, secretId: string): Promise<string | undefined> {
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  return SecretString || undefined;
}
