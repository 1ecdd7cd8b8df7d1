/** The form's GETs: the start page, the page of the step a session reached, and the document. */
import type { SimulatedBehaviour } from "../ports/issuer-catalogue.ts";
import { documentAnswer } from "./document.ts";
import { consentPage, encoded1254, identityPage, resultPage, startPage } from "./pages.ts";
import type { SimulatorResponse } from "./protocol.ts";
import {
  type Flow,
  flowPage,
  newSessionId,
  restart,
  type Session,
  type SessionState,
  withBehaviour,
} from "./session.ts";

/** The page `query` asks for, if the session has reached it; in windows-1254 for a barcode that is served so. */
export async function formGet(
  flow: Flow,
  query: URLSearchParams,
  session: Session | undefined,
): Promise<SimulatorResponse> {
  if (query.get("belge") === "goster") return documentAnswer(flow, session);
  const islem = query.get("islem");
  if (islem === null) {
    return flowPage(flow, session?.id ?? newSessionId(), session?.state.notice, { step: "barcode" }, startPage);
  }
  if (!session) return restart(flow);
  const { id, state } = session;
  const behaviour = state.step === "barcode" ? undefined : state.behaviour;
  const answer = await flowStepPage(flow, islem, id, state, behaviour);
  return behaviour === "windows-1254" ? encoded1254(answer) : answer;
}

/** The page of step `islem`, when the session stands at it; otherwise the flow starts again. */
async function flowStepPage(
  flow: Flow,
  islem: string,
  id: string,
  state: SessionState,
  behaviour: SimulatedBehaviour | undefined,
): Promise<SimulatorResponse> {
  if (islem === "dogrulama" && state.step === "identity") {
    const barcode = state.barcode;
    return flowPage(
      flow,
      id,
      state.notice,
      { step: "identity", barcode, ...withBehaviour(behaviour) },
      (token, notice) => identityPage(token, barcode, notice),
    );
  }
  if (islem === "onay" && state.step === "consent") {
    return flowPage(
      flow,
      id,
      state.notice,
      { step: "consent", barcode: state.barcode, matched: state.matched, ...withBehaviour(behaviour) },
      consentPage,
    );
  }
  if (islem === "sonuc" && state.step === "document") {
    return flowPage(
      flow,
      id,
      undefined,
      { step: "document", barcode: state.barcode, ...withBehaviour(behaviour) },
      () => resultPage(behaviour),
    );
  }
  return restart(flow);
}
