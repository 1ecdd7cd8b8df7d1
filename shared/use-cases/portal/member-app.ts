/** What every portal use case on an app starts from: the app, if the caller's organisation owns it. */
import type { AppItem } from "../../domain/apps.ts";
import { isId } from "../../domain/ids.ts";
import type { Member } from "../../domain/organizations.ts";
import type { AppStore } from "../../ports/app-store.ts";
import { appNotFound } from "../accounts/require-app.ts";

/** The app `appId` if the caller's organisation owns it; any other app reads as not found. */
export async function memberApp(apps: Pick<AppStore, "getApp">, member: Member, appId: string): Promise<AppItem> {
  const app = isId("app", appId) ? await apps.getApp(appId) : undefined;
  if (!app || app.organization_id !== member.organizationId) throw appNotFound(appId);
  return app;
}
