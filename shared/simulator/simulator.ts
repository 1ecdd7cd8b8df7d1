/**
 * The e-Devlet simulator (edevlet.md): e-Devlet's barcode verification as the sandbox and the
 * local runtime's issuer, both ways in, answered from what the simulator holds for a barcode.
 *
 * The web form keeps no session on the server, so any Lambda instance answers any step: the
 * session is `TURKIYESESSIONID` and a second cookie, `w3p`, that carries the step reached, the
 * current page's token and what was established (the barcode, and whether the number given was
 * the holder's, never the number itself), signed with the key over the session id. Both are
 * renewed on every page. A client that drops a cookie, sends an earlier page's token or skips a
 * step lands on the start page, in a fresh session, with a warning that is no negative answer.
 *
 * The steps: `protocol.ts` (what it reads and answers, its texts), `session.ts` (the signed
 * session), `pages.ts`, `form-pages.ts` (the GETs), `form-steps.ts` (the POSTs), `document.ts`
 * (step 5) and `mobile.ts` (the mobile endpoint).
 */
import { EDEVLET_FORM, EDEVLET_MOBILE } from "../domain/edevlet.ts";
import { formGet } from "./form-pages.ts";
import { formPost } from "./form-steps.ts";
import { mobile } from "./mobile.ts";
import { errorPage, notFoundPage } from "./pages.ts";
import { pause, type SimulatorDeps, type SimulatorRequest, type SimulatorResponse } from "./protocol.ts";
import { type Flow, sessionOf } from "./session.ts";

/** The answer to one request: the mobile endpoint, or the form's page or step its method and path name. */
async function answer(flow: Flow, request: SimulatorRequest): Promise<SimulatorResponse> {
  const url = new URL(request.target, "http://simulator.invalid");
  const method = request.method.toUpperCase();
  if (url.pathname === EDEVLET_MOBILE.path && method === "GET") return mobile(flow, url.searchParams, request);
  if (url.pathname !== EDEVLET_FORM.start) return notFoundPage();
  const session = await sessionOf(flow, request);
  if (method === "GET") return formGet(flow, url.searchParams, session);
  if (method === "POST") return formPost(flow, url.searchParams, session, request);
  return notFoundPage();
}

/** The simulator: one answer per request; it never throws (a failure is a `500` page, and a log line). */
export function edevletSimulator(deps: SimulatorDeps): (request: SimulatorRequest) => Promise<SimulatorResponse> {
  const flow: Flow = { deps, now: deps.now ?? Date.now };
  return async (request) => {
    let response: SimulatorResponse;
    try {
      response = await answer(flow, request);
    } catch (error) {
      deps.log.error("The e-Devlet simulator could not answer", { error });
      response = errorPage();
    }
    // A step's answer takes e-Devlet its time; the redirect after a POST is part of the same step.
    if (response.status !== 302) await pause(deps.latencyMs ?? 0, request.signal);
    return response;
  };
}
