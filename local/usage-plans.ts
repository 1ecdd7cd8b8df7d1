/**
 * The local usage plan: API Gateway's REST control plane for the four operations that keep
 * each app's request bucket (list and create API keys, add a key to the plan, list the plan's
 * keys), so the same SDK client and adapter run locally. One plan, `LOCAL_USAGE_PLAN_ID`; the
 * local gateway asks it whether a usage identifier has a bucket, as API Gateway does. Errors
 * come back as API Gateway sends them (status, `x-amzn-errortype`, a message). Kept in a file
 * beside the tables, so a restart keeps the apps' buckets as it keeps the apps.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import { APIGatewayClient } from "@aws-sdk/client-api-gateway";
import { z } from "zod";
import type { AppLimits } from "#shared/ports/app-limits";
import { appLimitsOn } from "#shared/wiring/app-limits";
import { writeDataFile } from "./data-file.ts";
import { localClient, serveOnLoopback } from "./engines.ts";
import { jsonRequestBody } from "./json-body.ts";

/** The plan's id, as the stack's `UsagePlanId` output names a deployed one. */
export const LOCAL_USAGE_PLAN_ID = "localplan";

const MAX_BODY_BYTES = 16 * 1024;
const MAX_PAGE = 500;

const stored = z.object({
  keys: z.array(z.object({ id: z.string(), name: z.string(), value: z.string(), createdDate: z.number() })),
  planKeys: z.array(z.string()),
});
type StoredKey = z.infer<typeof stored>["keys"][number];

class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const parsed = await jsonRequestBody(request, MAX_BODY_BYTES, (reason) =>
    reason === "too_large"
      ? new GatewayError(413, "BadRequestException", "Request body too large")
      : new GatewayError(400, "BadRequestException", "Request body is not a JSON object"),
  );
  if (typeof parsed !== "object" || parsed === null) {
    throw new GatewayError(400, "BadRequestException", "Request body is not a JSON object");
  }
  return parsed as Record<string, unknown>;
}

/** One page of `items` from `position` (an index, as text), with the next position when more remain. */
function page<T>(items: T[], query: URLSearchParams): { item: T[]; position?: string } {
  const from = Number(query.get("position") ?? "0");
  const limit = Math.min(Number(query.get("limit") ?? MAX_PAGE) || MAX_PAGE, MAX_PAGE);
  if (!Number.isInteger(from) || from < 0) throw new GatewayError(400, "BadRequestException", "Invalid position");
  const item = items.slice(from, from + limit);
  return from + limit < items.length ? { item, position: String(from + limit) } : { item };
}

export interface LocalUsagePlans {
  url: string;
  /** Whether `identifier` is the value of a key in the plan: a request with it has a bucket. */
  has(identifier: string): boolean;
  stop(): Promise<void>;
}

/** The local usage plan on `port`, kept in `dataFile` (in memory without one). */
export async function startUsagePlans(options: { port: number; dataFile?: string }): Promise<LocalUsagePlans> {
  const initial =
    options.dataFile && existsSync(options.dataFile)
      ? stored.parse(JSON.parse(readFileSync(options.dataFile, "utf8")))
      : { keys: [], planKeys: [] };
  const keys = new Map<string, StoredKey>(initial.keys.map((key) => [key.id, key]));
  const planKeys = new Set<string>(initial.planKeys);
  /** The values of the plan's keys: what the gateway looks a usage identifier up in. */
  const planValues = new Set([...planKeys].flatMap((id) => keys.get(id)?.value ?? []));
  const save = () => {
    if (options.dataFile) {
      writeDataFile(options.dataFile, `${JSON.stringify({ keys: [...keys.values()], planKeys: [...planKeys] })}\n`);
    }
  };
  const plan = (id: string | undefined) => {
    if (id !== LOCAL_USAGE_PLAN_ID) throw new GatewayError(404, "NotFoundException", "Invalid Usage Plan ID specified");
  };
  const described = (key: StoredKey, withValue: boolean) => ({
    id: key.id,
    name: key.name,
    enabled: true,
    createdDate: key.createdDate,
    ...(withValue ? { value: key.value } : {}),
  });

  const operations: Record<
    string,
    (query: URLSearchParams, body: Record<string, unknown>, planId?: string) => unknown
  > = {
    "GET /apikeys": (query) => {
      const name = query.get("name") ?? "";
      const matching = [...keys.values()].filter((key) => key.name.startsWith(name));
      const { item, position } = page(matching, query);
      const withValues = query.get("includeValues") === "true";
      return { item: item.map((key) => described(key, withValues)), ...(position ? { position } : {}) };
    },
    "POST /apikeys": (_query, body) => {
      const { name, value } = body;
      if (typeof name !== "string" || name === "" || name.length > 1024) {
        throw new GatewayError(400, "BadRequestException", "Invalid API key name");
      }
      if (typeof value !== "string" || !/^[0-9A-Za-z]{20,128}$/.test(value)) {
        throw new GatewayError(400, "BadRequestException", "API key value must be 20 to 128 letters and digits");
      }
      if ([...keys.values()].some((key) => key.value === value)) {
        throw new GatewayError(409, "ConflictException", "API Key already exists");
      }
      const key = { id: randomBytes(5).toString("hex"), name, value, createdDate: Math.floor(Date.now() / 1000) };
      keys.set(key.id, key);
      save();
      return described(key, true);
    },
    "POST /usageplans/{id}/keys": (_query, body, planId) => {
      plan(planId);
      const key = typeof body.keyId === "string" ? keys.get(body.keyId) : undefined;
      if (!key || body.keyType !== "API_KEY")
        throw new GatewayError(404, "NotFoundException", "Invalid API Key identifier specified");
      if (planKeys.has(key.id)) throw new GatewayError(409, "ConflictException", "Usage Plan Key already exists");
      planKeys.add(key.id);
      planValues.add(key.value);
      save();
      return { id: key.id, type: "API_KEY", name: key.name, value: key.value };
    },
    "GET /usageplans/{id}/keys": (query, _body, planId) => {
      plan(planId);
      const inPlan = [...planKeys].flatMap((id) => {
        const key = keys.get(id);
        return key ? [{ id: key.id, type: "API_KEY", name: key.name, value: key.value }] : [];
      });
      const { item, position } = page(inPlan, query);
      return { item, ...(position ? { position } : {}) };
    },
  };

  const server = createServer(async (request, response) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": "application/json", ...headers });
      response.end(JSON.stringify(body));
    };
    try {
      const url = new URL(request.url ?? "/", "http://localhost");
      const planPath = /^\/usageplans\/([^/]+)\/keys$/.exec(url.pathname);
      const route = `${request.method} ${planPath ? "/usageplans/{id}/keys" : url.pathname}`;
      const operation = operations[route];
      if (!operation) throw new GatewayError(404, "NotFoundException", `No operation ${route}`);
      const body = request.method === "POST" ? await readJson(request) : {};
      send(request.method === "POST" ? 201 : 200, operation(url.searchParams, body, planPath?.[1]));
    } catch (error) {
      const known = error instanceof GatewayError ? error : new GatewayError(500, "InternalFailure", "Internal error");
      send(known.status, { message: known.message }, { "x-amzn-errortype": known.type });
    }
  });
  const served = await serveOnLoopback(server, options.port);
  return { ...served, has: (identifier) => planValues.has(identifier) };
}

/** The request buckets as the local runtime's own code keeps them (the dev app, tests). */
export function localAppLimits(endpoint: string): AppLimits {
  return appLimitsOn(new APIGatewayClient({ ...localClient(endpoint), maxAttempts: 2 }), LOCAL_USAGE_PLAN_ID);
}
