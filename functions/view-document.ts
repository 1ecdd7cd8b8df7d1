/**
 * GET /backoffice/v1/verifications/{verification_id}/document?copy=upload|issuer: primary
 * adapter -> use case `viewDocument` -> secondary adapters (the verifications table, the
 * uploads bucket's presigner, the audit trail).
 */

import { VIEW_DOCUMENT_FUNCTION } from "#shared/declarations/functions/view-document";
import { documentQuerySchema } from "#shared/domain/review";
import { parseQuery } from "#shared/http/requests";
import { header } from "#shared/http/responses";
import { staffRouteHandler } from "#shared/http/staff-route-handler";
import { viewDocument } from "#shared/use-cases/review/document";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { auditTrail } from "#shared/wiring/stores/audit";
import { documentStore } from "#shared/wiring/stores/documents";
import { verificationStore } from "#shared/wiring/stores/verifications";

const config = functionConfig(VIEW_DOCUMENT_FUNCTION);
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = {
  verifications: verificationStore(config, audit),
  documents: documentStore(config),
  audit,
  clock,
};

/** A browser cannot read where a cross-origin redirect points, so a JSON caller gets the link itself. */
function wantsJson(accept: string | undefined): boolean {
  return (accept ?? "").split(",").some((type) => type.split(";")[0]?.trim().toLowerCase() === "application/json");
}

export const handler = staffRouteHandler(log, async (event, staff) => {
  const { copy } = parseQuery(event.queryStringParameters, documentQuerySchema);
  const link = await viewDocument(deps, staff, { verificationId: event.pathParameters?.verification_id ?? "", copy });
  const noStore = { "Cache-Control": "no-store" };
  if (wantsJson(header(event, "Accept"))) return { status: 200, body: link, headers: noStore };
  return { status: 303, headers: { ...noStore, Location: link.url } };
});
