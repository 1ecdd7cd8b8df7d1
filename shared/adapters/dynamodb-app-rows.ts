import type { AppItem } from "../domain/apps.ts";
import { keyHashOf, keyPk } from "./dynamodb-key-lookup.ts";

/**
 * Apps as the apps table keeps them, for the stores that read or write an app's item (the app
 * store, and the organisation store for the apps an organisation owns).
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
