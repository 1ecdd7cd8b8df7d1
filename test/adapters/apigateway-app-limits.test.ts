/**
 * The apps' request buckets through the SDK's own API Gateway client, against the local usage
 * plan that speaks API Gateway's control-plane protocol: a registered app's usage identifier
 * is a key of the plan, registering again changes nothing, a registration interrupted after
 * its key was made is finished by the next, and the plan lists its apps over several pages.
 */

import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { APIGatewayClient, CreateApiKeyCommand, GetApiKeysCommand } from "@aws-sdk/client-api-gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiGatewayAppLimits } from "#shared/adapters/apigateway-app-limits";
import { usageIdentifier } from "#shared/domain/apps";
import { LOCAL_REGION, newLocalCredentials } from "../../local/engines.ts";
import { LOCAL_USAGE_PLAN_ID, type LocalUsagePlans, startUsagePlans } from "../../local/usage-plans.ts";
import { appId } from "../support/fakes.ts";

/** A random access key to sign with, as the runtime's clients sign (this service checks no signature). */
const CREDENTIALS = newLocalCredentials();

const dataFile = path.join(mkdtempSync(path.join(os.tmpdir(), "usage-plan-")), "usage-plan.json");
let plans: LocalUsagePlans;
let client: APIGatewayClient;

beforeAll(async () => {
  plans = await startUsagePlans({ port: 0, dataFile });
  client = new APIGatewayClient({ endpoint: plans.url, region: LOCAL_REGION, credentials: CREDENTIALS });
});
afterAll(async () => {
  client.destroy();
  await plans.stop();
});

describe("apiGatewayAppLimits", () => {
  it("puts the app's usage identifier in the plan, once however often it registers", async () => {
    const limits = apiGatewayAppLimits(client, LOCAL_USAGE_PLAN_ID);
    expect(plans.has(usageIdentifier(appId(1)))).toBe(false);

    await limits.register(appId(1));
    await limits.register(appId(1));

    expect(plans.has(usageIdentifier(appId(1)))).toBe(true);
    expect(await limits.registered()).toEqual(new Set([appId(1)]));
    const keys = await client.send(new GetApiKeysCommand({ nameQuery: appId(1) }));
    expect(keys.items?.map((key) => key.name)).toEqual([appId(1)]);
  });

  it("finishes a registration that stopped after making the key", async () => {
    await client.send(new CreateApiKeyCommand({ name: appId(2), value: usageIdentifier(appId(2)), enabled: true }));
    expect(plans.has(usageIdentifier(appId(2)))).toBe(false);

    await apiGatewayAppLimits(client, LOCAL_USAGE_PLAN_ID).register(appId(2));

    expect(plans.has(usageIdentifier(appId(2)))).toBe(true);
    const keys = await client.send(new GetApiKeysCommand({ nameQuery: appId(2) }));
    expect(keys.items).toHaveLength(1);
  });

  it("lists every app of the plan across pages, and keeps them over a restart", async () => {
    const limits = apiGatewayAppLimits(client, LOCAL_USAGE_PLAN_ID);
    const many = Array.from({ length: 520 }, (_, i) => appId(1000 + i));
    for (const id of many) await limits.register(id);

    const registered = await limits.registered();
    expect(registered.size).toBe(many.length + 2);

    await plans.stop();
    plans = await startUsagePlans({ port: 0, dataFile });
    client.destroy();
    client = new APIGatewayClient({ endpoint: plans.url, region: LOCAL_REGION, credentials: CREDENTIALS });
    expect(plans.has(usageIdentifier(many[519] as string))).toBe(true);
    expect((await apiGatewayAppLimits(client, LOCAL_USAGE_PLAN_ID).registered()).size).toBe(many.length + 2);
  });

  it("fails as API Gateway does for a plan that does not exist", async () => {
    await expect(apiGatewayAppLimits(client, "noplan").register(appId(3))).rejects.toMatchObject({
      name: "NotFoundException",
    });
  });

  it("makes identifiers API Gateway takes: 20 to 128 letters and digits", () => {
    expect(usageIdentifier(appId(4))).toMatch(/^[0-9A-Za-z]{20,128}$/);
    expect(usageIdentifier(appId(4))).not.toBe(usageIdentifier(appId(5)));
  });
});
