import type { FunctionDeclaration } from "../function-definition.ts";

export const PORTAL_PAGE_FUNCTION = {
  name: "portal-page",
  entry: "functions/portal-page.ts",
  settings: ["WEB_ASSETS", "PORTAL_CLIENT_ID", "IDENTITY_ENDPOINT"],
  timeoutSeconds: 10,
  access: { tables: {}, uploads: [] },
  routes: [
    { method: "GET", path: "/portal", authorization: "none" },
    { method: "GET", path: "/portal/assets/{file}", authorization: "none" },
  ],
} as const satisfies FunctionDeclaration;
