/** The form's POSTs, one a step: the barcode, the holder's number, the consent; each answered with a redirect. */
import { BARCODE_PATTERN, isIdentityNumber } from "../domain/certificates/keys.ts";
import { EDEVLET_FORM, isBrowserUserAgent } from "../domain/edevlet.ts";
import { busyPage, challengePage, errorPage, forbiddenPage, html } from "./pages.ts";
import {
  CHURN_COOKIE,
  FORM_PAGES,
  MOVED_BARCODE_STEP,
  pause,
  type SimulatorRequest,
  type SimulatorResponse,
  SLOW_HOLD_MS,
} from "./protocol.ts";
import {
  cookieValues,
  type Flow,
  newToken,
  redirect,
  restart,
  type Session,
  type Stage,
  sessionCookies,
  withBehaviour,
} from "./session.ts";

async function barcodeStep(
  flow: Flow,
  session: Session,
  fields: URLSearchParams,
  query: URLSearchParams,
  request: SimulatorRequest,
): Promise<SimulatorResponse> {
  const barcode = (fields.get(EDEVLET_FORM.fields.barcode) ?? "").trim().toUpperCase();
  const holding = BARCODE_PATTERN.test(barcode) ? await flow.deps.holding(barcode) : undefined;
  if (!holding) return redirect(flow, EDEVLET_FORM.start, session.id, { step: "barcode" }, "unknownBarcode");
  switch (holding.behaviour) {
    case "browser-only":
      if (!isBrowserUserAgent(request.headers["user-agent"])) return forbiddenPage();
      break;
    case "redirect-307":
      // Sent again, body and all, to where the step moved; the session and its token stay.
      if (!query.has("yonlendirme")) {
        return {
          status: 307,
          headers: { location: MOVED_BARCODE_STEP, "cache-control": "no-store" },
          cookies: [],
          body: "",
        };
      }
      break;
    case "cookie-churn":
      return redirect(
        flow,
        FORM_PAGES.identity,
        session.id,
        { step: "identity", barcode, behaviour: "cookie-churn" },
        undefined,
        [`${CHURN_COOKIE}=1; Path=/`],
      );
    case "busy":
      return busyPage();
    case "error":
      return errorPage();
    case "unrecognised": {
      const token = newToken();
      return html(200, challengePage(token), await sessionCookies(flow, session.id, { step: "barcode" }, { token }));
    }
    case "slow":
      await pause(SLOW_HOLD_MS, request.signal);
      break;
  }
  return redirect(flow, FORM_PAGES.identity, session.id, {
    step: "identity",
    barcode,
    ...withBehaviour(holding.behaviour),
  });
}

async function identityStep(
  flow: Flow,
  session: Session,
  stage: Extract<Stage, { step: "identity" }>,
  fields: URLSearchParams,
) {
  const { barcode } = stage;
  const number = (fields.get(EDEVLET_FORM.fields.identityNumber) ?? "").trim();
  if (!isIdentityNumber(number)) return redirect(flow, FORM_PAGES.identity, session.id, stage, "invalidNumber");
  const holding = await flow.deps.holding(barcode);
  // `session-lost`: e-Devlet forgot the session after step 2; `token-stale`: it refuses step 3's token.
  if (holding?.behaviour === "session-lost" || holding?.behaviour === "token-stale") return restart(flow);
  const matched = holding?.document?.holder === number;
  // `cookie-churn`: the cookie step 2 set is deleted here.
  const deleted = holding?.behaviour === "cookie-churn" ? [`${CHURN_COOKIE}=; Max-Age=0; Path=/`] : [];
  return redirect(
    flow,
    FORM_PAGES.consent,
    session.id,
    { step: "consent", barcode, matched, ...withBehaviour(stage.behaviour) },
    undefined,
    deleted,
  );
}

async function consentStep(
  flow: Flow,
  session: Session,
  stage: Extract<Stage, { step: "consent" }>,
  fields: URLSearchParams,
  request: SimulatorRequest,
) {
  if (!fields.has(EDEVLET_FORM.fields.consent)) {
    return redirect(flow, FORM_PAGES.consent, session.id, stage, "consentMissing");
  }
  const behaviour = stage.behaviour;
  // A client that still sends a deleted cookie is not keeping cookies as a browser does.
  if (behaviour === "cookie-churn" && cookieValues(request.cookies).has(CHURN_COOKIE)) return restart(flow);
  if (behaviour === "near-miss") return redirect(flow, EDEVLET_FORM.start, session.id, { step: "barcode" }, "nearMiss");
  // `windows-1254` refuses another holder on the consent page itself, in that charset.
  if (!stage.matched && behaviour === "windows-1254") {
    return redirect(flow, FORM_PAGES.consent, session.id, stage, "notHolder");
  }
  if (!stage.matched) return redirect(flow, EDEVLET_FORM.start, session.id, { step: "barcode" }, "notHolder");
  return redirect(flow, FORM_PAGES.result, session.id, {
    step: "document",
    barcode: stage.barcode,
    ...withBehaviour(behaviour),
  });
}

export async function formPost(
  flow: Flow,
  query: URLSearchParams,
  session: Session | undefined,
  request: SimulatorRequest,
): Promise<SimulatorResponse> {
  const encoded = (request.headers["content-type"] ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded");
  const fields = new URLSearchParams(encoded ? request.body : "");
  const token = fields.get(EDEVLET_FORM.fields.token);
  if (!session || !query.has("submit") || !session.state.token || token !== session.state.token) return restart(flow);
  const islem = query.get("islem");
  const { state } = session;
  if (islem === null && state.step === "barcode") return barcodeStep(flow, session, fields, query, request);
  if (islem === "dogrulama" && state.step === "identity") {
    const stage = { step: "identity", barcode: state.barcode, ...withBehaviour(state.behaviour) } as const;
    return identityStep(flow, session, stage, fields);
  }
  if (islem === "onay" && state.step === "consent") {
    const stage = {
      step: "consent",
      barcode: state.barcode,
      matched: state.matched,
      ...withBehaviour(state.behaviour),
    } as const;
    return consentStep(flow, session, stage, fields, request);
  }
  return restart(flow);
}
