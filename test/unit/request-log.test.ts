/**
 * The public route handler's request log: which requests it keeps and what it keeps of them,
 * and that a log that cannot be written leaves the answer as it was.
 */
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { ValidationError, VerificationNotFoundError } from "#shared/domain/errors";
import type { RequestRecord } from "#shared/domain/requests";
import { type LoggedRequest, type RouteResult, routeHandler } from "#shared/http/route-handler";
import { RecordingLog } from "../support/fakes.ts";
import { FixedClock } from "../support/fixed-clock.ts";

const AT = "2026-11-26T10:42:00Z";

function request(method: string, path: string, verificationId?: string): APIGatewayProxyEvent {
  return {
    httpMethod: method,
    path,
    headers: {},
    pathParameters: verificationId ? { verification_id: verificationId } : null,
    queryStringParameters: { limit: "5" },
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: "req-1", authorizer: { appId: "app_01", environment: "sandbox" } },
  } as unknown as APIGatewayProxyEvent;
}

function handler(work: (logged: LoggedRequest) => Promise<RouteResult>, failing = false) {
  const kept: RequestRecord[] = [];
  const log = new RecordingLog();
  const requests = {
    async record(entry: RequestRecord) {
      if (failing) throw new Error("throttled");
      kept.push(entry);
    },
  };
  const handle = routeHandler({ log, requests, clock: new FixedClock(AT) }, (_event, _caller, _context, logged) =>
    work(logged),
  );
  return { kept, log, call: (event: APIGatewayProxyEvent) => handle(event, {} as Context) };
}

describe("the request log", () => {
  it("keeps a create with the verification it made, and not a read that succeeded", async () => {
    const { kept, call } = handler(async () => ({ status: 201, body: { verification_id: "ver_01" } }));
    await call(request("POST", "/v1/verifications"));
    await call(request("GET", "/v1/verifications/ver_01", "ver_01"));
    expect(kept).toEqual([
      {
        request_id: "req-1",
        app_id: "app_01",
        method: "POST",
        path: "/v1/verifications",
        status: 201,
        verification_id: "ver_01",
        at: AT,
      },
    ]);
  });

  it("keeps a refused read with its code and the verification its path names, never the query", async () => {
    const { kept, call } = handler(async () => {
      throw new VerificationNotFoundError();
    });
    const answer = await call(request("GET", "/v1/verifications/ver_02", "ver_02"));
    expect(answer.statusCode).toBe(404);
    expect(kept).toEqual([
      {
        request_id: "req-1",
        app_id: "app_01",
        method: "GET",
        path: "/v1/verifications/ver_02",
        status: 404,
        code: "verification_not_found",
        verification_id: "ver_02",
        at: AT,
      },
    ]);
    expect(JSON.stringify(kept)).not.toContain("limit");
  });

  it("keeps a validation refusal's field paths and codes (at most 20), never the messages that may quote a value", async () => {
    const fields = Array.from({ length: 25 }, (_, i) => ({
      field: `metadata.k${i}`,
      code: "too_long",
      message: `"secret-value-${i}" is too long`,
    }));
    const { kept, call } = handler(async () => {
      throw new ValidationError(fields);
    });
    expect((await call(request("POST", "/v1/verifications"))).statusCode).toBe(422);
    expect(kept[0]?.code).toBe("validation_failed");
    expect(kept[0]?.errors).toEqual(fields.slice(0, 20).map(({ field, code }) => ({ field, code })));
    expect(JSON.stringify(kept)).not.toContain("secret-value");
  });

  it("answers as it would when the log cannot be written, and says so in the function's log", async () => {
    const { call, log } = handler(async () => ({ status: 201, body: { verification_id: "ver_03" } }), true);
    const answer = await call(request("POST", "/v1/verifications"));
    expect(answer.statusCode).toBe(201);
    expect(JSON.parse(answer.body)).toEqual({ verification_id: "ver_03" });
    expect(log.lines).toEqual([
      expect.objectContaining({ level: "warn", attributes: expect.objectContaining({ request_id: "req-1" }) }),
    ]);
  });

  describe("a record carried by the change the request made", () => {
    const CREATED = {
      request_id: "req-1",
      app_id: "app_01",
      method: "POST",
      path: "/v1/verifications",
      status: 201,
      verification_id: "ver_04",
      at: AT,
    };

    it("is the record the answer would keep, and nothing more is written for it", async () => {
      const carried: RequestRecord[] = [];
      const { kept, call } = handler(async (logged) => {
        const request = logged.answering(201);
        const record = request.recordOf("ver_04");
        carried.push(record);
        request.kept(record);
        return { status: 201, body: { verification_id: "ver_04" } };
      });

      expect((await call(request("POST", "/v1/verifications"))).statusCode).toBe(201);
      expect(carried).toEqual([CREATED]);
      expect(kept).toEqual([]);
    });

    it("is replaced by the answer's when the request then failed", async () => {
      const { kept, call } = handler(async (logged) => {
        const request = logged.answering(201);
        request.kept(request.recordOf("ver_04"));
        throw new Error("the idempotency record could not be saved");
      });

      expect((await call(request("POST", "/v1/verifications"))).statusCode).toBe(500);
      const { verification_id: _none, ...request500 } = CREATED;
      expect(kept).toEqual([{ ...request500, status: 500, code: "internal_error" }]);
    });

    it("is written once the answer is known when the change did not carry it (a replay, a confirm of a verification already confirmed)", async () => {
      const { kept, call } = handler(async (logged) => {
        logged.answering(201).recordOf("ver_04");
        return { status: 201, body: { verification_id: "ver_04" } };
      });

      await call(request("POST", "/v1/verifications"));
      expect(kept).toEqual([CREATED]);
    });
  });
});
