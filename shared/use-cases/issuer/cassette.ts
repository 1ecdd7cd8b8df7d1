/**
 * Cassettes (`ops issuer record`, test/fixtures/edevlet/): one lookup's exchanges as they went,
 * kept to be replayed through the adapter in tests. Before anything is kept, the identity number
 * is replaced wherever it appears (the path, the form, the bodies) and every cookie's value is
 * replaced; a PDF is kept as its SHA-256 and size only.
 */
import type { EdevletProtocol } from "../../domain/issuer.ts";
import type { Authority, IssuerAnswer, ProbeStep, RecordedExchange } from "../../ports/authority.ts";

/** What stands in a cassette where the identity number was: as long as one, never one. */
export const REDACTED_NUMBER = "*".repeat(11);
/** What stands in a cassette where a cookie's value was. */
export const REDACTED_COOKIE = "redacted";

export interface Cassette {
  protocol: EdevletProtocol;
  barcode: string;
  /** The classification the adapter made when it was recorded: `found`, `not_found`, `unavailable_<cause>`. */
  classification: string;
  exchanges: RecordedExchange[];
}

export const classificationOf = (answer: IssuerAnswer) =>
  answer.kind === "unavailable" ? `unavailable_${answer.cause}` : answer.kind;

/** `exchange` with `identityNumber` and every cookie's value replaced. */
export function redacted(exchange: RecordedExchange, identityNumber: string): RecordedExchange {
  const text = (value: string) => value.replaceAll(identityNumber, REDACTED_NUMBER);
  const headers = Object.fromEntries(
    Object.entries(exchange.headers).map(([name, values]) => [
      name,
      name === "set-cookie"
        ? values.map((cookie) => cookie.replace(/^([^=;]*)=[^;]*/, `$1=${REDACTED_COOKIE}`))
        : values.map(text),
    ]),
  );
  const body =
    "base64" in exchange.body
      ? {
          base64: Buffer.from(
            Buffer.from(exchange.body.base64, "base64").toString("latin1").replaceAll(identityNumber, REDACTED_NUMBER),
            "latin1",
          ).toString("base64"),
        }
      : exchange.body;
  return {
    ...exchange,
    path: text(exchange.path),
    ...(exchange.form && {
      form: Object.fromEntries(Object.entries(exchange.form).map(([name, value]) => [name, text(value)])),
    }),
    headers,
    body,
  };
}

/** One lookup by `lookup`, recorded and redacted. */
export async function recordLookup(
  ask: (observe: (step: ProbeStep) => void) => Authority,
  protocol: EdevletProtocol,
  request: { barcode: string; identityNumber: string },
): Promise<Cassette> {
  const exchanges: RecordedExchange[] = [];
  const answer = await ask((step) => {
    if (step.kind === "request") exchanges.push(redacted(step.exchange, request.identityNumber));
  }).lookup({ documentType: "YOK_STUDENT", ...request });
  return { protocol, barcode: request.barcode, classification: classificationOf(answer), exchanges };
}
