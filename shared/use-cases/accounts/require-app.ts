/** The app as stored now, or the refusal that there is none. */
import type { AppItem } from "../../domain/apps.ts";
import { NotFoundError } from "../../domain/errors.ts";
import type { AppStore } from "../../ports/app-store.ts";

export function appNotFound(appId: string): NotFoundError {
  return new NotFoundError("app_not_found", `No app ${appId} in this environment`);
}

export async function requireApp(apps: Pick<AppStore, "getApp">, appId: string): Promise<AppItem> {
  const app = await apps.getApp(appId);
  if (!app) throw appNotFound(appId);
  return app;
}
