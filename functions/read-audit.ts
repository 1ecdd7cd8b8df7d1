/**
 * GET /backoffice/v1/audit (admins): primary adapter -> use case `readAudit` -> secondary
 * adapter (the audit table and its indexes).
 */
import { READ_AUDIT_FUNCTION } from "#shared/declarations/functions/read-audit";
import { auditQuerySchema } from "#shared/domain/audit-query";
import { parseQuery } from "#shared/http/requests";
import { staffRouteHandler } from "#shared/http/staff-route-handler";
import { readAudit } from "#shared/use-cases/review/audit";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { auditTrail } from "#shared/wiring/stores/audit";

const config = functionConfig(READ_AUDIT_FUNCTION);
const deps = { audit: auditTrail(config), clock };

export const handler = staffRouteHandler(log, async (event, staff) => {
  const query = parseQuery(event.queryStringParameters, auditQuerySchema);
  return {
    status: 200,
    body: await readAudit(deps, staff, {
      verificationId: query.verification_id,
      actor: query.actor,
      action: query.action,
      since: query.since,
      until: query.until,
      limit: query.limit,
      cursor: query.cursor,
    }),
  };
});
