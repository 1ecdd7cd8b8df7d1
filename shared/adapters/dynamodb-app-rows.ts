import type { AppItem } from "../domain/apps.ts";
import type { MemberItem, OrganizationItem } from "../domain/organizations.ts";
import { keyHashOf, keyPk } from "./dynamodb-key-lookup.ts";

/**
 * Apps, organisations and memberships as the apps table keeps them, for the stores that read or
 * write their items (the app store, the organisation store and the organisations' places); API
 * keys are the key lookup's (`dynamodb-key-lookup.ts`).
 */

/** The apps table's partition key of an app's item. */
export const appPk = (appId: string) => `APP#${appId}`;

/** An app as the apps table keeps it: under `pk = APP#<app_id>`, its live keys by their partition keys. */
export type AppRow = Omit<AppItem, "key_hashes"> & { pk: string; key_pks: string[] };

export function appRow({ key_hashes, ...app }: AppItem): AppRow {
  return { pk: appPk(app.app_id), ...app, key_pks: key_hashes.map(keyPk) };
}

export function appFromRow({ pk: _pk, key_pks, ...row }: AppRow): AppItem {
  return { ...row, key_hashes: key_pks.map(keyHashOf) };
}

/** The apps table's partition key of an organisation's item. */
export const orgPk = (organizationId: string) => `ORG#${organizationId}`;

/** An organisation as the apps table keeps it: under `pk = ORG#<organization_id>`. */
export type OrganizationRow = OrganizationItem & { pk: string };

export function organizationRow(organization: OrganizationItem): OrganizationRow {
  return { pk: orgPk(organization.organization_id), ...organization };
}

export function organizationFromRow({ pk: _pk, ...organization }: OrganizationRow): OrganizationItem {
  return organization;
}

/** The apps table's partition key of a membership's item. */
export const memberPk = (sub: string) => `MEMBER#${sub}`;

/** A membership as the apps table keeps it: under `pk = MEMBER#<sub>`. */
export type MemberRow = MemberItem & { pk: string };

export function memberRow(member: MemberItem): MemberRow {
  return { pk: memberPk(member.sub), ...member };
}

export function memberFromRow({ pk: _pk, ...member }: MemberRow): MemberItem {
  return member;
}
