/**
 * The apps table on DynamoDB Local, as the app store, the key lookup and the organisation store
 * write and read it: the items keep the layout deployed tables hold (`pk = APP#<app_id>` with its
 * live keys as `key_pks`, `pk = KEY#<sha256>` with no hash besides, `pk = ORG#<organization_id>`,
 * `pk = MEMBER#<sub>`), and what the stores answer carries no key.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { DynamoDbAppStore } from "#shared/adapters/dynamodb-app-store";
import { DynamoDbOrganizationStore } from "#shared/adapters/dynamodb-organization-store";
import { APPS_TABLE } from "#shared/declarations/tables";
import type { KeyItem } from "#shared/domain/apps";
import { displayPrefix, generateApiKey, hashApiKey } from "#shared/domain/credentials";
import type { MemberItem, OrganizationItem } from "#shared/domain/organizations";
import { anApp, appId } from "../support/fakes.ts";
import { ownTables } from "../support/own-tables.ts";

const tables = ownTables();
const table = tables.name(APPS_TABLE);
let store: DynamoDbAppStore;

beforeAll(() => {
  store = new DynamoDbAppStore(tables.doc(), table);
});

async function stored(pk: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await tables.doc().send(new GetCommand({ TableName: table, Key: { pk }, ConsistentRead: true }));
  return Item;
}

function keyOf(app: string): KeyItem {
  const apiKey = generateApiKey("sandbox");
  return {
    key_hash: hashApiKey(apiKey),
    kind: "key",
    key_app_id: app,
    environment: "sandbox",
    prefix: displayPrefix(apiKey),
    app_status: "active",
    created_at: "2026-11-26T12:00:00Z",
  };
}

describe("the apps table's items", () => {
  it("keeps an app and its keys under their partition keys, and answers them without", async () => {
    const app = anApp({ app_id: appId(41) });
    const first = keyOf(app.app_id);
    expect(await store.createWithKey({ ...app, key_hashes: [first.key_hash] }, first, undefined, 1)).toBe(true);
    const { key_hash: _hash, ...firstFields } = first;
    const { key_hashes: _hashes, ...appFields } = app;

    expect(await stored(`APP#${app.app_id}`)).toEqual({
      pk: `APP#${app.app_id}`,
      ...appFields,
      key_pks: [`KEY#${first.key_hash}`],
    });
    expect(await stored(`KEY#${first.key_hash}`)).toEqual({ pk: `KEY#${first.key_hash}`, ...firstFields });
    expect(await store.getApp(app.app_id)).toEqual({ ...app, key_hashes: [first.key_hash] });
    expect(await store.getKey(first.key_hash)).toEqual(first);
    expect(await store.listKeys(app.app_id)).toEqual([first]);

    const read = (await store.getApp(app.app_id)) ?? expect.fail("no app");
    const second = keyOf(app.app_id);
    const expiresAt = "2026-11-27T12:00:00Z";
    await store.addKey(
      read,
      second,
      [{ key_hash: first.key_hash, expires_at: expiresAt }],
      [first.key_hash, second.key_hash],
      "2026-11-26T12:00:00Z",
    );
    expect((await stored(`APP#${app.app_id}`))?.key_pks).toEqual([`KEY#${first.key_hash}`, `KEY#${second.key_hash}`]);
    expect((await stored(`KEY#${first.key_hash}`))?.expires_at).toBe(expiresAt);
    expect(await store.currentKeys((await store.getApp(app.app_id)) ?? read, "2026-11-26T12:00:00Z")).toEqual([
      { ...first, expires_at: expiresAt },
      second,
    ]);

    expect(await store.renameKey(app.app_id, second.key_hash, "Web servers")).toBe(true);
    expect((await stored(`KEY#${second.key_hash}`))?.name).toBe("Web servers");
    expect(await store.recordKeyUse(second.key_hash, "2026-11-26T12:05:00Z", "2026-11-26T12:04:00Z")).toBe(true);
    expect((await stored(`KEY#${second.key_hash}`))?.last_used_at).toBe("2026-11-26T12:05:00Z");

    await store.revokeKeys(
      (await store.getApp(app.app_id)) ?? read,
      [first.key_hash],
      [second.key_hash],
      "2026-11-26T12:10:00Z",
    );
    expect((await stored(`APP#${app.app_id}`))?.key_pks).toEqual([`KEY#${second.key_hash}`]);
    expect((await stored(`KEY#${first.key_hash}`))?.revoked_at).toBe("2026-11-26T12:10:00Z");
    expect((await store.getApp(app.app_id))?.key_hashes).toEqual([second.key_hash]);
  });
});

describe("the apps table's organisations and memberships", () => {
  it("keeps them under their partition keys, and answers them without", async () => {
    const organizations = new DynamoDbOrganizationStore(tables.doc(), table);
    const organization: OrganizationItem = {
      kind: "organization",
      organization_id: "org_01KAB0000000000000000000A1",
      name: "Acme",
      environment: "sandbox",
      created_at: "2026-11-26T12:00:00Z",
      app_count: 0,
    };
    await organizations.createOrganization(organization);
    expect(await stored(`ORG#${organization.organization_id}`)).toEqual({
      pk: `ORG#${organization.organization_id}`,
      ...organization,
    });
    expect(await organizations.getOrganization(organization.organization_id)).toEqual(organization);

    const member: MemberItem = {
      kind: "member",
      sub: "8b0c2f7e-3f6a-4c1e-9a57-0d5c1b9e2f41",
      username: "ayse",
      member_org_id: organization.organization_id,
      role: "owner",
      created_at: "2026-11-26T12:00:00Z",
    };
    expect(await organizations.addMember(member, 5)).toBe(true);
    expect(await stored(`MEMBER#${member.sub}`)).toEqual({ pk: `MEMBER#${member.sub}`, ...member });
    expect(await organizations.getMember(member.sub)).toEqual(member);
    expect(await organizations.memberNamed(organization.organization_id, "ayse")).toEqual(member);
    expect((await organizations.membersOf(organization.organization_id, 10)).members).toEqual([member]);
  });
});
