/**
 * The e-Devlet simulator (sandbox stack and local runtime), behind a function URL (payload 2.0):
 * primary adapter (the URL's event) -> simulator `edevletSimulator` (both ways in, edevlet.md) -> use
 * case `simulatedHolding` -> the certificate folders and the document reader.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { EDEVLET_SIMULATOR_FUNCTION } from "#shared/declarations/functions/edevlet-simulator";
import { edevletSimulator } from "#shared/simulator/simulator";
import { simulatedHolding } from "#shared/use-cases/issuer/simulated-holding";
import { edevletSimulatorPorts } from "#shared/wiring/authority";
import { functionConfig } from "#shared/wiring/config";

const ports = edevletSimulatorPorts(functionConfig(EDEVLET_SIMULATOR_FUNCTION));
const simulator = edevletSimulator({
  holding: (barcode) => simulatedHolding(ports, barcode),
  key: ports.key,
  log: ports.log,
  latencyMs: ports.latencyMs,
});

/** What a server that knows when its client went away passes beside the event (Lambda passes its context, which has no signal). */
export interface Invocation {
  signal?: AbortSignal;
}

export const handler = async (
  event: APIGatewayProxyEventV2,
  invocation?: Invocation,
): Promise<APIGatewayProxyStructuredResultV2> => {
  const raw = event.body ?? "";
  const answer = await simulator({
    method: event.requestContext.http.method,
    target: event.rawQueryString ? `${event.rawPath}?${event.rawQueryString}` : event.rawPath,
    headers: event.headers,
    cookies: event.cookies ?? [],
    body: event.isBase64Encoded ? Buffer.from(raw, "base64").toString("utf8") : raw,
    signal: invocation?.signal,
  });
  const { status: statusCode, headers, cookies, body } = answer;
  return typeof body === "string"
    ? { statusCode, headers, cookies, body }
    : { statusCode, headers, cookies, body: Buffer.from(body).toString("base64"), isBase64Encoded: true };
};
