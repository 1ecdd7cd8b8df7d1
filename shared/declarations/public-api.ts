import { authorizerOf, routesOf } from "./function-definition.ts";
import { AUTHORIZER_FUNCTION } from "./functions/authorizer.ts";
import { CONFIRM_UPLOAD_FUNCTION } from "./functions/confirm-upload.ts";
import { CREATE_VERIFICATION_FUNCTION } from "./functions/create-verification.ts";
import { ERASE_VERIFICATION_FUNCTION } from "./functions/erase-verification.ts";
import { GET_VERIFICATION_FUNCTION } from "./functions/get-verification.ts";
import { LIST_EVENTS_FUNCTION } from "./functions/list-events.ts";
import { LIST_VERIFICATIONS_FUNCTION } from "./functions/list-verifications.ts";

/** The public API's functions, in the order of its routes (the OpenAPI document's). */
export const PUBLIC_API_FUNCTIONS = [
  CREATE_VERIFICATION_FUNCTION,
  CONFIRM_UPLOAD_FUNCTION,
  GET_VERIFICATION_FUNCTION,
  ERASE_VERIFICATION_FUNCTION,
  LIST_VERIFICATIONS_FUNCTION,
  LIST_EVENTS_FUNCTION,
] as const;

/** The public API's routes, each with the function it reaches: the local gateway serves exactly these, the stack wires exactly these. */
export const ROUTES = routesOf(PUBLIC_API_FUNCTIONS);

/** The authorizer in front of every public API route that has one, as its declaration gives it. */
export const AUTHORIZER = authorizerOf(AUTHORIZER_FUNCTION);
