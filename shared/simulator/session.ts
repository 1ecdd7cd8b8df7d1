/**
 * A form session kept in no server: `TURKIYESESSIONID` and the `w3p` cookie that carries the step
 * reached, the current page's token and what was established, signed with the key over the
 * session id; and the answers that renew it (a page of the flow, a redirect, a restart).
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { EDEVLET_FORM } from "../domain/edevlet.ts";
import type { SimulatedBehaviour } from "../ports/issuer-catalogue.ts";
import { html } from "./pages.ts";
import {
  NOTICES,
  type Notice,
  SESSION_LIFETIME_MS,
  SESSION_STATE_COOKIE,
  type SimulatorDeps,
  type SimulatorRequest,
  type SimulatorResponse,
} from "./protocol.ts";

/** Where a session stands; past step 2, with the barcode's behaviour, so no later page needs to look it up. */
export type Stage =
  | { step: "barcode" }
  | { step: "identity"; barcode: string; behaviour?: SimulatedBehaviour }
  | { step: "consent"; barcode: string; matched: boolean; behaviour?: SimulatedBehaviour }
  | { step: "document"; barcode: string; behaviour?: SimulatedBehaviour };

/** A stage's `behaviour`, when there is one. */
export const withBehaviour = (behaviour: SimulatedBehaviour | undefined) => (behaviour ? { behaviour } : {});

export type SessionState = Stage & {
  /** The token of the page last shown; none between a POST and the page it redirects to. */
  token?: string;
  /** A text the next page shows once. */
  notice?: Notice;
  /** When the session lapses, in milliseconds since the epoch. */
  expires: number;
};

export interface Session {
  id: string;
  state: SessionState;
}

const COOKIE_ATTRIBUTES = "Path=/; HttpOnly; SameSite=Lax";

export function cookieValues(cookies: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const cookie of cookies) {
    for (const pair of cookie.split(";")) {
      const equals = pair.indexOf("=");
      if (equals > 0) values.set(pair.slice(0, equals).trim(), pair.slice(equals + 1).trim());
    }
  }
  return values;
}

export const newSessionId = () => randomBytes(16).toString("hex");
export const newToken = () => `{${randomUUID().toUpperCase()}}`;

/** The `w3p` cookie: the state and its signature over the session id, base64url each. */
function sealState(key: string, id: string, state: SessionState): string {
  const payload = Buffer.from(JSON.stringify(state)).toString("base64url");
  const mac = createHmac("sha256", key).update(`${id}.${payload}`).digest("base64url");
  return `${payload}.${mac}`;
}

function openState(key: string, id: string, sealed: string): SessionState | undefined {
  const [payload = "", mac = "", ...rest] = sealed.split(".");
  if (rest.length > 0) return undefined;
  const expected = createHmac("sha256", key).update(`${id}.${payload}`).digest();
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as SessionState;
  } catch {
    return undefined;
  }
}

/** What every step of the flow reads: the simulator's dependencies and its clock. */
export interface Flow {
  deps: SimulatorDeps;
  now: () => number;
}

/** The request's session, when its cookies carry one that is signed and not lapsed. */
export async function sessionOf(flow: Flow, request: SimulatorRequest): Promise<Session | undefined> {
  const cookies = cookieValues(request.cookies);
  const id = cookies.get(EDEVLET_FORM.sessionCookie);
  const sealed = cookies.get(SESSION_STATE_COOKIE);
  if (!id || !sealed) return undefined;
  const state = openState(await flow.deps.key(), id, sealed);
  return state && state.expires > flow.now() ? { id, state } : undefined;
}

/** The two cookies of a session at `stage`, renewed. */
export async function sessionCookies(
  flow: Flow,
  id: string,
  stage: Stage,
  extra: { token?: string; notice?: Notice } = {},
): Promise<string[]> {
  const state: SessionState = { ...stage, ...extra, expires: flow.now() + SESSION_LIFETIME_MS };
  return [
    `${EDEVLET_FORM.sessionCookie}=${id}; ${COOKIE_ATTRIBUTES}`,
    `${SESSION_STATE_COOKIE}=${sealState(await flow.deps.key(), id, state)}; ${COOKIE_ATTRIBUTES}`,
  ];
}

/** A `302` to `location`, the session renewed at `stage`. */
export async function redirect(
  flow: Flow,
  location: string,
  id: string,
  stage: Stage,
  notice?: Notice,
  extraCookies: string[] = [],
): Promise<SimulatorResponse> {
  return {
    status: 302,
    headers: { location, "cache-control": "no-store" },
    cookies: [...(await sessionCookies(flow, id, stage, notice ? { notice } : {})), ...extraCookies],
    body: "",
  };
}

/** Out of order, without the session, or with a stale token: the start page, in a fresh session. */
export function restart(flow: Flow): Promise<SimulatorResponse> {
  return redirect(flow, EDEVLET_FORM.start, newSessionId(), { step: "barcode" }, "restarted");
}

/** A page of the flow: a new token, the session renewed, a notice shown once. */
export async function flowPage(
  flow: Flow,
  id: string,
  notice: Notice | undefined,
  stage: Stage,
  render: (token: string, notice?: string) => string,
): Promise<SimulatorResponse> {
  const token = newToken();
  return html(200, render(token, notice && NOTICES[notice]), await sessionCookies(flow, id, stage, { token }));
}
