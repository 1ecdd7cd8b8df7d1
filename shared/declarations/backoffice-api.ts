import { authorizerOf, routesOf } from "./function-definition.ts";
import { ASK_ISSUER_AGAIN_FUNCTION } from "./functions/ask-issuer-again.ts";
import { BACKOFFICE_CONSOLE_FUNCTION } from "./functions/backoffice-console.ts";
import { CLAIM_REVIEW_FUNCTION } from "./functions/claim-review.ts";
import { DECIDE_REVIEW_FUNCTION } from "./functions/decide-review.ts";
import { INSPECT_VERIFICATION_FUNCTION } from "./functions/inspect-verification.ts";
import { LIST_REVIEWS_FUNCTION } from "./functions/list-reviews.ts";
import { READ_AUDIT_FUNCTION } from "./functions/read-audit.ts";
import { STAFF_AUTHORIZER_FUNCTION } from "./functions/staff-authorizer.ts";
import { VIEW_DOCUMENT_FUNCTION } from "./functions/view-document.ts";

/**
 * The backoffice: staff review what could not be decided automatically. The review console's
 * files and the staff API, in the order of their routes; the console is the page (`/backoffice/`
 * is the same resource: API Gateway ignores a trailing slash) and its assets. The staff
 * authorizer's policy names every route its caller's groups allow, so its bundle carries this list.
 */
export const BACKOFFICE_FUNCTIONS = [
  BACKOFFICE_CONSOLE_FUNCTION,
  LIST_REVIEWS_FUNCTION,
  CLAIM_REVIEW_FUNCTION,
  DECIDE_REVIEW_FUNCTION,
  ASK_ISSUER_AGAIN_FUNCTION,
  INSPECT_VERIFICATION_FUNCTION,
  VIEW_DOCUMENT_FUNCTION,
  READ_AUDIT_FUNCTION,
] as const;

/** The backoffice API's routes, each with the function it reaches: the local gateway serves exactly these, the stack wires exactly these. */
export const BACKOFFICE_ROUTES = routesOf(BACKOFFICE_FUNCTIONS);

/** The authorizer in front of every backoffice API route that has one, as its declaration gives it. */
export const STAFF_AUTHORIZER = authorizerOf(STAFF_AUTHORIZER_FUNCTION);
