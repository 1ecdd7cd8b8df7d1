import {
  type DynamoDBDocumentClient,
  GetCommand,
  paginateQuery,
  paginateScan,
  QueryCommand,
} from "@aws-sdk/lib-dynamodb";
import { APPS_TABLE } from "../declarations/tables.ts";
import type { AppItem } from "../domain/apps.ts";
import type { MemberItem, OrganizationItem, PortalRole } from "../domain/organizations.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";
import type { OrganizationStore } from "../ports/organization-store.ts";
import {
  type AppRow,
  appFromRow,
  appPk,
  type MemberRow,
  memberFromRow,
  memberPk,
  memberRow,
  type OrganizationRow,
  organizationFromRow,
  organizationRow,
  orgPk,
} from "./dynamodb-app-rows.ts";
import {
  placeGivenBack,
  placesTaken,
  releasePlaces,
  reservePlaces,
  writeTakingPlace,
} from "./dynamodb-organization-places.ts";
import { queryWithMore } from "./dynamodb-pages.ts";
import { type AuditLinker, linked, refused, refusedChange, type WriteItem, writeTogether } from "./dynamodb-writes.ts";

/**
 * Organisations and memberships, kept in the apps table beside the apps they own; a change with
 * a record is written with it, through `audit`.
 */
export class DynamoDbOrganizationStore implements OrganizationStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly audit?: AuditLinker,
  ) {}

  /** `record` with what links it into its chain. */
  private audited(record: AuditRecord | undefined) {
    return linked(this.audit, record);
  }

  /** `changes`, and with `record` the record of them, together; a refusal as DynamoDB gave it. */
  private write(changes: WriteItem[], record: AuditRecord | undefined) {
    return writeTogether(this.db, changes, this.audited(record));
  }

  async createOrganization(organization: OrganizationItem, audit?: AuditRecord): Promise<void> {
    await this.write(
      [
        {
          Put: {
            TableName: this.table,
            Item: organizationRow(organization),
            ConditionExpression: "attribute_not_exists(pk)",
          },
        },
      ],
      audit,
    );
  }

  async getOrganization(organizationId: string): Promise<OrganizationItem | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: { pk: orgPk(organizationId) } }));
    return Item && organizationFromRow(Item as OrganizationRow);
  }

  /** Its count, or its apps counted from the index for one stored before apps were counted. */
  async appsOwned(organizationId: string): Promise<number> {
    return placesTaken(this.db, this.table, organizationId, "apps");
  }

  async memberCount(organizationId: string): Promise<number> {
    return placesTaken(this.db, this.table, organizationId, "members");
  }

  async pendingMembers(organizationId: string): Promise<MemberItem[]> {
    const members: MemberItem[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.table,
        IndexName: APPS_TABLE.indexes.membersByOrganization.indexName,
        KeyConditionExpression: "member_org_id = :organization",
        FilterExpression: "attribute_exists(pending)",
        ExpressionAttributeValues: { ":organization": organizationId },
      },
    );
    for await (const page of pages) members.push(...((page.Items ?? []) as MemberRow[]).map(memberFromRow));
    return members;
  }

  async markJoined(member: MemberItem): Promise<void> {
    const joined: WriteItem = {
      Update: {
        TableName: this.table,
        Key: { pk: memberPk(member.sub) },
        UpdateExpression: "REMOVE pending",
        ConditionExpression: "attribute_exists(pending)",
      },
    };
    const givenBack = await placeGivenBack(this.db, this.table, member.member_org_id, ["pending"]);
    try {
      await this.write(givenBack ? [joined, givenBack] : [joined], undefined);
    } catch (error) {
      // Joined or removed meanwhile: nothing is pending of them any more.
      if (refusedChange(error).found) return;
      // No invitation's place counted to give back (counted before theirs was): joined alone.
      if (givenBack && refusedChange(error, 1).found) return this.markJoinedAlone(joined);
      // Another write changed the organisation at that moment: still pending, so the next
      // invitation settles it again.
      if (refused(error, 2)) return;
      throw error;
    }
  }

  private async markJoinedAlone(joined: WriteItem): Promise<void> {
    try {
      await this.write([joined], undefined);
    } catch (error) {
      if (!refusedChange(error).found) throw error;
    }
  }

  async reserveInvitation(
    organizationId: string,
    limits: { members: number; pending: number },
  ): Promise<"reserved" | "members" | "pending"> {
    const taken = await reservePlaces(this.db, this.table, organizationId, [
      { counted: "members", most: limits.members },
      { counted: "pending", most: limits.pending },
    ]);
    if (taken === "taken") return "reserved";
    return taken === "members" ? "members" : "pending";
  }

  async releaseInvitation(organizationId: string): Promise<void> {
    await releasePlaces(this.db, this.table, organizationId, ["members", "pending"]);
  }

  async addInvitedMember(member: MemberItem, audit?: AuditRecord): Promise<void> {
    await this.write(
      [{ Put: { TableName: this.table, Item: memberRow(member), ConditionExpression: "attribute_not_exists(pk)" } }],
      audit,
    );
  }

  /** Every organisation (the table is small: a few items per app, organisation and user). */
  async listOrganizations(): Promise<OrganizationItem[]> {
    const organizations: OrganizationItem[] = [];
    const pages = paginateScan(
      { client: this.db },
      {
        TableName: this.table,
        FilterExpression: "kind = :organization",
        ExpressionAttributeValues: { ":organization": "organization" },
      },
    );
    for await (const page of pages)
      organizations.push(...((page.Items ?? []) as OrganizationRow[]).map(organizationFromRow));
    return organizations.sort((a, b) => a.organization_id.localeCompare(b.organization_id));
  }

  async addMember(member: MemberItem, membersPerOrganization: number, audit?: AuditRecord): Promise<boolean> {
    const place = { organizationId: member.member_org_id, most: membersPerOrganization, counted: "members" as const };
    const changes: WriteItem[] = [
      { Put: { TableName: this.table, Item: memberRow(member), ConditionExpression: "attribute_not_exists(pk)" } },
    ];
    return writeTakingPlace(this.db, this.table, place, changes, this.audited(audit));
  }

  async getMember(sub: string): Promise<MemberItem | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: { pk: memberPk(sub) } }));
    return Item && memberFromRow(Item as MemberRow);
  }

  async memberNamed(organizationId: string, username: string): Promise<MemberItem | undefined> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: APPS_TABLE.indexes.membersByOrganization.indexName,
        KeyConditionExpression: "member_org_id = :organization AND username = :username",
        ExpressionAttributeValues: { ":organization": organizationId, ":username": username },
      }),
    );
    // The index is read eventually: the membership itself says whether it still stands.
    const found = Items[0] && memberFromRow(Items[0] as MemberRow);
    const member = found && (await this.getMember(found.sub));
    return member?.member_org_id === organizationId && member.username === username ? member : undefined;
  }

  async membershipsNamed(username: string): Promise<MemberItem[]> {
    const found: MemberItem[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.table,
        IndexName: APPS_TABLE.indexes.membersByUsername.indexName,
        KeyConditionExpression: "username = :username",
        ExpressionAttributeValues: { ":username": username },
      },
    );
    for await (const page of pages) found.push(...((page.Items ?? []) as MemberRow[]).map(memberFromRow));
    // The index is read eventually: each membership itself says whether it still stands as found.
    const members = await Promise.all(found.map((item) => this.getMember(item.sub)));
    return members.filter((member): member is MemberItem => member?.username === username);
  }

  async changeMember(
    member: MemberItem,
    change: { remove: true } | { role: PortalRole },
    ownerStays: MemberItem | undefined,
    audit?: AuditRecord,
  ): Promise<boolean> {
    const holds = {
      ConditionExpression: "member_org_id = :organization AND #role = :role",
      ExpressionAttributeNames: { "#role": "role" },
    };
    const changes: WriteItem[] = [
      "remove" in change
        ? {
            Delete: {
              TableName: this.table,
              Key: { pk: memberPk(member.sub) },
              ...holds,
              ExpressionAttributeValues: { ":organization": member.member_org_id, ":role": member.role },
            },
          }
        : {
            Update: {
              TableName: this.table,
              Key: { pk: memberPk(member.sub) },
              UpdateExpression: "SET #role = :new",
              ...holds,
              ExpressionAttributeValues: {
                ":organization": member.member_org_id,
                ":role": member.role,
                ":new": change.role,
              },
            },
          },
    ];
    if ("remove" in change) {
      // A member still invited holds an invitation's place too; the delete holds only while
      // they still are, so the count given back is the one they hold.
      const [memberChange] = changes;
      if (memberChange?.Delete) {
        memberChange.Delete.ConditionExpression = `${holds.ConditionExpression} AND ${member.pending ? "attribute_exists(pending)" : "attribute_not_exists(pending)"}`;
      }
      const counted = member.pending ? (["members", "pending"] as const) : (["members"] as const);
      const givenBack = await placeGivenBack(this.db, this.table, member.member_org_id, counted);
      if (givenBack) changes.push(givenBack);
    }
    if (ownerStays) {
      // Read in the same transaction: two owners removing each other cannot both succeed.
      changes.push({
        ConditionCheck: {
          TableName: this.table,
          Key: { pk: memberPk(ownerStays.sub) },
          ...holds,
          ExpressionAttributeValues: { ":organization": ownerStays.member_org_id, ":role": "owner" },
        },
      });
    }
    try {
      await this.write(changes, audit);
      return true;
    } catch (error) {
      if (refused(error, changes.length)) return false;
      throw error;
    }
  }

  async attachApp(
    appId: string,
    organizationId: string,
    now: string,
    audit: AuditRecord | undefined,
    appsPerOrganization: number,
  ): Promise<"attached" | "taken" | "full"> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: { pk: appPk(appId) }, ConsistentRead: true }),
    );
    const app = Item && appFromRow(Item as AppRow);
    if (!app || (app.organization_id !== undefined && app.organization_id !== organizationId)) return "taken";
    const attach = (condition: string): WriteItem => ({
      Update: {
        TableName: this.table,
        Key: { pk: appPk(appId) },
        UpdateExpression: "SET organization_id = :organization, updated_at = :now",
        ConditionExpression: `attribute_exists(pk) AND ${condition}`,
        ExpressionAttributeValues: { ":organization": organizationId, ":now": now },
      },
    });
    try {
      if (app.organization_id === organizationId) {
        // Already its own: attached again, holding no second place.
        await this.write([attach("organization_id = :organization")], audit);
        return "attached";
      }
      const place = { organizationId, most: appsPerOrganization, counted: "apps" as const };
      const changes = [attach("attribute_not_exists(organization_id)")];
      return (await writeTakingPlace(this.db, this.table, place, changes, this.audited(audit))) ? "attached" : "full";
    } catch (error) {
      // Given to an organisation meanwhile: its own counts once, another's is refused.
      if (refusedChange(error, app.organization_id === organizationId ? 0 : 1).found) {
        return this.attachApp(appId, organizationId, now, audit, appsPerOrganization);
      }
      throw error;
    }
  }

  async appsOf(
    organizationId: string,
    limit: number,
    afterAppId?: string,
  ): Promise<{ apps: AppItem[]; more: boolean }> {
    const { items, more } = await queryWithMore<AppRow>(this.db, limit, {
      TableName: this.table,
      IndexName: APPS_TABLE.indexes.appsByOrganization.indexName,
      KeyConditionExpression: "organization_id = :organization",
      ExpressionAttributeValues: { ":organization": organizationId },
      ...(afterAppId
        ? { ExclusiveStartKey: { pk: appPk(afterAppId), organization_id: organizationId, app_id: afterAppId } }
        : {}),
    });
    return { apps: items.map(appFromRow), more };
  }

  async membersOf(
    organizationId: string,
    limit: number,
    after?: { username: string; sub: string },
  ): Promise<{ members: MemberItem[]; more: boolean }> {
    const { items, more } = await queryWithMore<MemberRow>(this.db, limit, {
      TableName: this.table,
      IndexName: APPS_TABLE.indexes.membersByOrganization.indexName,
      KeyConditionExpression: "member_org_id = :organization",
      ExpressionAttributeValues: { ":organization": organizationId },
      ...(after
        ? { ExclusiveStartKey: { pk: memberPk(after.sub), member_org_id: organizationId, username: after.username } }
        : {}),
    });
    return { members: items.map(memberFromRow), more };
  }
}
