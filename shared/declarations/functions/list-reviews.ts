import type { FunctionDeclaration } from "../function-definition.ts";

export const LIST_REVIEWS_FUNCTION = {
  name: "list-reviews",
  entry: "functions/list-reviews.ts",
  settings: ["ENVIRONMENT", "VERIFICATIONS_TABLE", "APPS_TABLE"],
  timeoutSeconds: 10,
  // The queue from the review-deadline index, and each app's name on the page.
  access: { tables: { VERIFICATIONS_TABLE: ["dynamodb:Query"], APPS_TABLE: ["dynamodb:GetItem"] }, uploads: [] },
  routes: [{ method: "GET", path: "/backoffice/v1/reviews", groups: ["reviewers", "admins"] }],
} as const satisfies FunctionDeclaration;
