import type { FunctionDeclaration } from "../function-definition.ts";

export const BACKOFFICE_CONSOLE_FUNCTION = {
  name: "backoffice-console",
  entry: "functions/backoffice-console.ts",
  settings: ["WEB_ASSETS", "STAFF_CLIENT_ID", "IDENTITY_ENDPOINT", "UPLOADS_BUCKET", "S3_ENDPOINT"],
  timeoutSeconds: 10,
  access: { tables: {}, uploads: [] },
  routes: [
    { method: "GET", path: "/backoffice", authorization: "none" },
    { method: "GET", path: "/backoffice/assets/{file}", authorization: "none" },
  ],
} as const satisfies FunctionDeclaration;
