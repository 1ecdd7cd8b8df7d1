import { authorizerOf, routesOf } from "./function-definition.ts";
import { CHANGE_MEMBER_ROLE_FUNCTION } from "./functions/change-member-role.ts";
import { CREATE_APP_FUNCTION } from "./functions/create-app.ts";
import { GET_MEMBER_FUNCTION } from "./functions/get-member.ts";
import { INVITE_MEMBER_FUNCTION } from "./functions/invite-member.ts";
import { LIST_APP_EVENTS_FUNCTION } from "./functions/list-app-events.ts";
import { LIST_APP_REQUESTS_FUNCTION } from "./functions/list-app-requests.ts";
import { LIST_APPS_FUNCTION } from "./functions/list-apps.ts";
import { LIST_DELIVERIES_FUNCTION } from "./functions/list-deliveries.ts";
import { LIST_MEMBERS_FUNCTION } from "./functions/list-members.ts";
import { LOOKUP_VERIFICATIONS_FUNCTION } from "./functions/lookup-verifications.ts";
import { PORTAL_AUTHORIZER_FUNCTION } from "./functions/portal-authorizer.ts";
import { PORTAL_PAGE_FUNCTION } from "./functions/portal-page.ts";
import { READ_USAGE_FUNCTION } from "./functions/read-usage.ts";
import { REMOVE_MEMBER_FUNCTION } from "./functions/remove-member.ts";
import { RENAME_KEY_FUNCTION } from "./functions/rename-key.ts";
import { REPLAY_EVENT_FUNCTION } from "./functions/replay-event.ts";
import { REVOKE_KEY_FUNCTION } from "./functions/revoke-key.ts";
import { ROTATE_KEY_FUNCTION } from "./functions/rotate-key.ts";
import { ROTATE_WEBHOOK_SECRET_FUNCTION } from "./functions/rotate-webhook-secret.ts";
import { SEARCH_VERIFICATIONS_FUNCTION } from "./functions/search-verifications.ts";
import { SEND_EVENT_FUNCTION } from "./functions/send-event.ts";
import { SET_WEBHOOK_FUNCTION } from "./functions/set-webhook.ts";
import { TEST_WEBHOOK_FUNCTION } from "./functions/test-webhook.ts";
import { VIEW_VERIFICATION_FUNCTION } from "./functions/view-verification.ts";
import { WHO_AM_I_FUNCTION } from "./functions/who-am-i.ts";

/**
 * The customer portal: an organisation's people manage its apps and look things up. Its page and
 * the portal API, in the order of their routes. Every route answers for the caller's organisation
 * only; another organisation's app, key, event or verification is `404`. The portal authorizer's
 * policy names every route the member's role allows, so its bundle carries this list.
 */
export const PORTAL_FUNCTIONS = [
  PORTAL_PAGE_FUNCTION,
  WHO_AM_I_FUNCTION,
  LIST_APPS_FUNCTION,
  CREATE_APP_FUNCTION,
  ROTATE_KEY_FUNCTION,
  REVOKE_KEY_FUNCTION,
  RENAME_KEY_FUNCTION,
  SET_WEBHOOK_FUNCTION,
  ROTATE_WEBHOOK_SECRET_FUNCTION,
  TEST_WEBHOOK_FUNCTION,
  LIST_DELIVERIES_FUNCTION,
  LIST_APP_EVENTS_FUNCTION,
  REPLAY_EVENT_FUNCTION,
  SEND_EVENT_FUNCTION,
  LIST_APP_REQUESTS_FUNCTION,
  SEARCH_VERIFICATIONS_FUNCTION,
  LOOKUP_VERIFICATIONS_FUNCTION,
  VIEW_VERIFICATION_FUNCTION,
  READ_USAGE_FUNCTION,
  LIST_MEMBERS_FUNCTION,
  INVITE_MEMBER_FUNCTION,
  GET_MEMBER_FUNCTION,
  CHANGE_MEMBER_ROLE_FUNCTION,
  REMOVE_MEMBER_FUNCTION,
] as const;

/** The portal API's routes, each with the function it reaches: the local gateway serves exactly these, the stack wires exactly these. */
export const PORTAL_ROUTES = routesOf(PORTAL_FUNCTIONS);

/** The authorizer in front of every portal API route that has one, as its declaration gives it. */
export const PORTAL_AUTHORIZER = authorizerOf(PORTAL_AUTHORIZER_FUNCTION);
