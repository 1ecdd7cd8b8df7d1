/** Step 5 of the form: the document itself, or what the barcode's behaviour serves in its place. */
import { randomUUID } from "node:crypto";
import { NEGATIVE_ANSWERS } from "../domain/edevlet.ts";
import type { SimulatedBehaviour } from "../ports/issuer-catalogue.ts";
import { html, page, paragraph } from "./pages.ts";
import { SIMULATOR_TEXTS, type SimulatorResponse } from "./protocol.ts";
import { type Flow, restart, type Session, sessionCookies, withBehaviour } from "./session.ts";

/** The copy handed over: the held bytes, or (`rerendered`) the same document with other bytes each time. */
export function copyOf(bytes: Uint8Array, behaviour: SimulatedBehaviour | undefined): Uint8Array {
  if (behaviour !== "rerendered") return bytes;
  return new Uint8Array(Buffer.concat([bytes, Buffer.from(`\n% rendered ${randomUUID()}\n`)]));
}

/** The document of a session that reached the result page; any other session starts again. */
export async function documentAnswer(flow: Flow, session: Session | undefined): Promise<SimulatorResponse> {
  if (session?.state.step !== "document") return restart(flow);
  const holding = await flow.deps.holding(session.state.barcode);
  const document = holding?.document;
  // The file went away since step 3: nothing to hand over, and no refusal either.
  if (!document) return restart(flow);
  const cookies = await sessionCookies(flow, session.id, {
    step: "document",
    barcode: session.state.barcode,
    ...withBehaviour(session.state.behaviour),
  });
  if (holding.behaviour === "not-pdf") {
    return html(200, page(SIMULATOR_TEXTS.title, paragraph(SIMULATOR_TEXTS.documentUnavailable)), cookies);
  }
  if (holding.behaviour === "negative-at-document") {
    return html(200, page(SIMULATOR_TEXTS.title, "", NEGATIVE_ANSWERS.notHolder), cookies);
  }
  return {
    status: 200,
    headers: { "content-type": "application/pdf", "content-disposition": "inline", "cache-control": "no-store" },
    cookies,
    body: copyOf(document.bytes, holding.behaviour),
  };
}
