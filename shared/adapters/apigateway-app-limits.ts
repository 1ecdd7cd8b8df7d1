/**
 * Each app's request bucket as an API Gateway usage-plan key: an API key named by the app id,
 * whose value is the app's usage identifier, in the stage's usage plan. API Gateway throttles
 * every key of the plan on its own at the plan's rate.
 */
import {
  type APIGatewayClient,
  ConflictException,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  GetApiKeysCommand,
  paginateGetUsagePlanKeys,
} from "@aws-sdk/client-api-gateway";
import { usageIdentifier } from "../domain/apps.ts";
import type { AppLimits } from "../ports/app-limits.ts";

/** The id of the API key named `appId`, if one was made already (by an earlier, interrupted registration). */
async function existingKeyId(client: APIGatewayClient, appId: string): Promise<string | undefined> {
  const found = await client.send(new GetApiKeysCommand({ nameQuery: appId, includeValues: false, limit: 10 }));
  return found.items?.find((key) => key.name === appId)?.id;
}

async function keyIdFor(client: APIGatewayClient, appId: string): Promise<string> {
  const existing = await existingKeyId(client, appId);
  if (existing) return existing;
  try {
    const created = await client.send(
      new CreateApiKeyCommand({ name: appId, value: usageIdentifier(appId), enabled: true }),
    );
    if (created.id) return created.id;
  } catch (error) {
    if (!(error instanceof ConflictException)) throw error;
  }
  // Made meanwhile by another registration of the same app.
  const made = await existingKeyId(client, appId);
  if (!made) throw new Error(`The usage-plan key of ${appId} could not be made`);
  return made;
}

export function apiGatewayAppLimits(client: APIGatewayClient, usagePlanId: string): AppLimits {
  return {
    async register(appId) {
      const keyId = await keyIdFor(client, appId);
      try {
        await client.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId, keyType: "API_KEY" }));
      } catch (error) {
        // Already in the plan: registered before.
        if (!(error instanceof ConflictException)) throw error;
      }
    },
    async registered() {
      const appIds = new Set<string>();
      for await (const page of paginateGetUsagePlanKeys({ client }, { usagePlanId, limit: 500 })) {
        for (const key of page.items ?? []) if (key.name) appIds.add(key.name);
      }
      return appIds;
    },
  };
}
