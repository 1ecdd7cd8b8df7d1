import type { AppStore } from "../../ports/app-store.ts";

/** The name of the app `appId`, as staff see it (the queue, the item): its id when it has none or is gone. */
export async function appNameOf(apps: Pick<AppStore, "getApp">, appId: string): Promise<string> {
  return (await apps.getApp(appId))?.name || appId;
}
