import { type DynamoDBDocumentClient, GetCommand, paginateScan } from "@aws-sdk/lib-dynamodb";
import { APPS_TABLE } from "../declarations/tables.ts";
import { type AppItem, appPk } from "../domain/apps.ts";
import { type MemberItem, memberPk, type OrganizationItem, orgPk } from "../domain/organizations.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";
import type { OrganizationStore } from "../ports/organization-store.ts";
import { queryWithMore } from "./dynamodb-pages.ts";
import { type AuditLinker, refusedChange, type WriteItem, writeTogether } from "./dynamodb-writes.ts";

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

  /** `changes`, and with `record` the record of them, together; a refusal as DynamoDB gave it. */
  private write(changes: WriteItem[], record: AuditRecord | undefined) {
    if (record && !this.audit) throw new Error("An audited change needs the audit trail beside the store");
    return writeTogether(this.db, changes, record && this.audit ? { linker: this.audit, record } : undefined);
  }

  async createOrganization(organization: OrganizationItem, audit?: AuditRecord): Promise<void> {
    await this.write(
      [{ Put: { TableName: this.table, Item: organization, ConditionExpression: "attribute_not_exists(pk)" } }],
      audit,
    );
  }

  async getOrganization(organizationId: string): Promise<OrganizationItem | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: { pk: orgPk(organizationId) } }));
    return Item as OrganizationItem | undefined;
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
    for await (const page of pages) organizations.push(...((page.Items ?? []) as OrganizationItem[]));
    return organizations.sort((a, b) => a.organization_id.localeCompare(b.organization_id));
  }

  async addMember(member: MemberItem, audit?: AuditRecord): Promise<void> {
    await this.write(
      [{ Put: { TableName: this.table, Item: member, ConditionExpression: "attribute_not_exists(pk)" } }],
      audit,
    );
  }

  async getMember(sub: string): Promise<MemberItem | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: { pk: memberPk(sub) } }));
    return Item as MemberItem | undefined;
  }

  async attachApp(appId: string, organizationId: string, now: string, audit?: AuditRecord): Promise<boolean> {
    try {
      await this.write(
        [
          {
            Update: {
              TableName: this.table,
              Key: { pk: appPk(appId) },
              UpdateExpression: "SET organization_id = :organization, updated_at = :now",
              ConditionExpression:
                "attribute_exists(pk) AND (attribute_not_exists(organization_id) OR organization_id = :organization)",
              ExpressionAttributeValues: { ":organization": organizationId, ":now": now },
            },
          },
        ],
        audit,
      );
      return true;
    } catch (error) {
      if (refusedChange(error).found) return false;
      throw error;
    }
  }

  async appsOf(
    organizationId: string,
    limit: number,
    afterAppId?: string,
  ): Promise<{ apps: AppItem[]; more: boolean }> {
    const { items, more } = await queryWithMore<AppItem>(this.db, limit, {
      TableName: this.table,
      IndexName: APPS_TABLE.indexes.appsByOrganization.indexName,
      KeyConditionExpression: "organization_id = :organization",
      ExpressionAttributeValues: { ":organization": organizationId },
      ...(afterAppId
        ? { ExclusiveStartKey: { pk: appPk(afterAppId), organization_id: organizationId, app_id: afterAppId } }
        : {}),
    });
    return { apps: items, more };
  }

  async membersOf(
    organizationId: string,
    limit: number,
    after?: { username: string; sub: string },
  ): Promise<{ members: MemberItem[]; more: boolean }> {
    const { items, more } = await queryWithMore<MemberItem>(this.db, limit, {
      TableName: this.table,
      IndexName: APPS_TABLE.indexes.membersByOrganization.indexName,
      KeyConditionExpression: "member_org_id = :organization",
      ExpressionAttributeValues: { ":organization": organizationId },
      ...(after
        ? { ExclusiveStartKey: { pk: memberPk(after.sub), member_org_id: organizationId, username: after.username } }
        : {}),
    });
    return { members: items, more };
  }
}
