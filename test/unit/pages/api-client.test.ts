/**
 * The pages call their APIs through openapi-fetch over the paths generated from their documents:
 * a path, a method, a parameter or a body a document does not have fails to compile (each
 * `@ts-expect-error` below makes `npm run typecheck` fail the day it stops being an error; this
 * file is type-checked with the pages, by `web/tsconfig.json`). Every call carries the session's
 * bearer token, renews it once on a 401, and turns a refusal into the page's ApiError.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { BackofficeApi } from "../../../web/backoffice/api.ts";
import type { paths as BackofficePaths } from "../../../web/backoffice/schema.ts";
import { BearerClient, type SessionTokens } from "../../../web/common/api-client.ts";
import { ApiError } from "../../../web/common/problem.ts";
import { SignedOutError } from "../../../web/common/session.ts";
import { PortalApi } from "../../../web/portal/api.ts";
import type { paths as PortalPaths } from "../../../web/portal/schema.ts";

const ROOT = "https://api.example.test/stage";

/** A session whose token is `token-<n>`, `n` counting the renewals. */
function session(options: { signedOut?: boolean } = {}) {
  let renewals = 0;
  const tokens = {
    ended: false,
    renewals: () => renewals,
    accessToken: async () => {
      if (options.signedOut) throw new SignedOutError();
      return `token-${renewals}`;
    },
    renew: async () => {
      renewals += 1;
    },
    end: () => {
      tokens.ended = true;
    },
  };
  return tokens satisfies SessionTokens;
}

/** Answers each request with the next of `answers`, keeping what was asked. */
function answering(...answers: (() => Response)[]) {
  const requests: Request[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      requests.push(request);
      const answer = answers.shift();
      if (!answer) throw new TypeError("fetch failed");
      return answer();
    }),
  );
  return requests;
}

const json =
  (status: number, body: unknown, type = "application/json") =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": type } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the pages' API client", () => {
  it("refuses, when compiling, a path, a method, a parameter or a body the document does not have", () => {
    const portal = new BearerClient<PortalPaths>(session(), () => undefined, "portal", ROOT).api;
    const backoffice = new BearerClient<BackofficePaths>(session(), () => undefined, "backoffice", ROOT).api;
    // Never called: the compiler is what reads them.
    const refused = [
      // @ts-expect-error: no such path
      () => portal.GET("/portal/v1/applications"),
      // @ts-expect-error: the path is the backoffice's
      () => portal.GET("/backoffice/v1/reviews"),
      // @ts-expect-error: no such method on the path
      () => portal.DELETE("/portal/v1/me"),
      // @ts-expect-error: the path's parameter is missing
      () => portal.GET("/portal/v1/apps/{app_id}/events", {}),
      () =>
        portal.GET("/portal/v1/apps/{app_id}/events", {
          // @ts-expect-error: no such event type
          params: { path: { app_id: "app_1" }, query: { type: "verification.created" } },
        }),
      // @ts-expect-error: the body has no name
      () => portal.POST("/portal/v1/apps", { body: { webhook_url: "https://hooks.example.test" } }),
      () =>
        backoffice.POST("/backoffice/v1/reviews/{verification_id}/decision", {
          params: { path: { verification_id: "ver_1" }, header: { "If-Match": '"3"' } },
          // @ts-expect-error: no such rejection code
          body: { result: "rejected", reason_code: "looks_odd" },
        }),
      () =>
        backoffice.POST("/backoffice/v1/reviews/{verification_id}/decision", {
          // @ts-expect-error: the decision's sequence (If-Match) is missing
          params: { path: { verification_id: "ver_1" } },
          body: { result: "verified" },
        }),
    ];
    expect(refused).toHaveLength(8);
  });

  it("calls the path under the API's root with the bearer token, its parameters and its body", async () => {
    const requests = answering(json(201, { app_id: "app_1" }), json(200, { data: [], next_cursor: null }));
    const api = new PortalApi(session(), () => undefined, ROOT);
    await api.createApp("Acme", undefined, "main");
    await api.events("app 1", "webhook.test", null);
    const [created, events] = requests;
    expect(created?.method).toBe("POST");
    expect(created?.url).toBe(`${ROOT}/portal/v1/apps`);
    expect(created?.headers.get("Authorization")).toBe("Bearer token-0");
    expect(created?.headers.get("Accept")).toBe("application/json");
    expect(created?.headers.get("Content-Type")).toBe("application/json");
    expect(created?.cache).toBe("no-store");
    expect(await created?.json()).toEqual({ name: "Acme", key_name: "main" });
    expect(events?.method).toBe("GET");
    expect(events?.url).toBe(`${ROOT}/portal/v1/apps/app%201/events?type=webhook.test&limit=20`);
    expect(events?.headers.get("Content-Type")).toBeNull();
  });

  it("sends the decision with the sequence it was read at", async () => {
    const requests = answering(json(200, { verification_id: "ver_1" }));
    await new BackofficeApi(session(), () => undefined, ROOT).decide("ver_1", 3, { result: "verified" });
    expect(requests[0]?.url).toBe(`${ROOT}/backoffice/v1/reviews/ver_1/decision`);
    expect(requests[0]?.headers.get("If-Match")).toBe('"3"');
    expect(await requests[0]?.json()).toEqual({ result: "verified" });
  });

  it("renews the token once on a 401 and sends the same request again", async () => {
    const requests = answering(json(401, {}), json(201, { app_id: "app_1" }));
    const tokens = session();
    const created = await new PortalApi(tokens, () => undefined, ROOT).createApp("Acme");
    expect(created).toEqual({ app_id: "app_1" });
    expect(tokens.renewals()).toBe(1);
    expect(requests.map((request) => request.headers.get("Authorization"))).toEqual([
      "Bearer token-0",
      "Bearer token-1",
    ]);
    expect(await requests[1]?.json()).toEqual({ name: "Acme" });
  });

  it("ends the session when the API still refuses it after the renewal", async () => {
    answering(json(401, {}), json(401, {}));
    const tokens = session();
    const signedOut = vi.fn();
    const refusal = await new PortalApi(tokens, signedOut, ROOT).me().catch((error: unknown) => error);
    expect(refusal).toEqual(new ApiError(401, "invalid_token", "Your session has ended. Sign in again."));
    expect(tokens.ended).toBe(true);
    expect(signedOut).toHaveBeenCalledOnce();
  });

  it("sends nothing once signed out", async () => {
    const requests = answering();
    const signedOut = vi.fn();
    const refusal = await new PortalApi(session({ signedOut: true }), signedOut, ROOT).me().catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).code).toBe("invalid_token");
    expect(requests).toEqual([]);
    expect(signedOut).toHaveBeenCalledOnce();
  });

  it("reads a refusal from its problem+json, and names the API when there is none", async () => {
    const problem = { code: "too_many_live_keys", detail: "The app has two live keys", request_id: "req_1" };
    answering(json(409, problem, "application/problem+json"), () => new Response("<html>", { status: 502 }));
    const api = new PortalApi(session(), () => undefined, ROOT);
    const refused = await api.rotateKey("app_1", 0).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 409, code: "too_many_live_keys" });
    expect((refused as ApiError).message).toBe("The app has two live keys (request req_1)");
    const unexpected = await api.me().catch((error: unknown) => error);
    expect(unexpected).toMatchObject({
      status: 502,
      code: "unexpected",
      message: "The portal answered 502. Try again.",
    });
  });

  it("says the API could not be reached when the request never got an answer", async () => {
    answering();
    const failed = await new BackofficeApi(session(), () => undefined, ROOT).claim("ver_1").catch((e: unknown) => e);
    expect(failed).toMatchObject({ status: 0, code: "network" });
  });
});
