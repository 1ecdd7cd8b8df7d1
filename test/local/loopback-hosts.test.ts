/**
 * `npm start` as a page of another site meets it (DNS rebinding: the site's name resolves to
 * 127.0.0.1, so the browser sends the site's name in `Host`): every port the runtime listens on
 * refuses such a request before anything behind it runs, and the access key its engines check
 * is random per data directory, so no page can sign with a constant it knows.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import {
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  ListUsersCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_BUCKET, LOCAL_REGION, type LocalCredentials, localCredentialsIn } from "../../local/engines.ts";
import { LOCAL_STAFF_POOL } from "../../local/resources.ts";
import { authorizationHeader, toAmzDate } from "../../local/sigv4.ts";
import { type RunningRuntime, startRuntime, stopRuntime } from "../support/runtime.ts";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "verification-api-hosts-"));
let running: RunningRuntime;

beforeAll(async () => {
  running = await startRuntime({ LOCAL_DATA_DIR: dataDir });
}, 120_000);
afterAll(async () => {
  if (running) await stopRuntime(running);
  rmSync(dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** One request to the loopback `port` carrying `host` in its `Host` header, as a browser sends it. */
function requestWithHost(
  port: number,
  host: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? "GET",
        path: "/",
        headers: { ...options.headers, host },
        agent: false,
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, contentType: String(response.headers["content-type"]), body }),
        );
      },
    );
    request.once("error", reject);
    request.end(options.body);
  });
}

/** Whether an answer is the listeners' refusal of a foreign host. */
function isHostRefusal(answer: Answer): boolean {
  if (answer.status !== 403 || answer.contentType !== "application/problem+json") return false;
  return (JSON.parse(answer.body) as { title?: string }).title === "Host not allowed";
}

/** The access key a data directory keeps, as its file holds it. */
function storedCredentials(folder: string): LocalCredentials {
  const stored = JSON.parse(readFileSync(path.join(folder, "credentials.json"), "utf8"));
  return { accessKeyId: stored.access_key_id, secretAccessKey: stored.secret_access_key };
}

const runtimeFile = (folder = dataDir) =>
  JSON.parse(readFileSync(path.join(folder, "runtime.json"), "utf8")) as {
    credentials: LocalCredentials;
    identity: { endpoint: string };
    dynamodb_endpoint: string;
    s3_endpoint: string;
  };

describe("every listener of npm start", () => {
  it("refuses a request for another host with 403, and answers one for 127.0.0.1, localhost or [::1]", async () => {
    const answers: { listener: string; host: string; refused: boolean }[] = [];
    const expected: typeof answers = [];
    for (const [listener, port] of Object.entries(running.listeners)) {
      for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, "evil.example", "localhost.:1"]) {
        answers.push({ listener, host, refused: isHostRefusal(await requestWithHost(port, host)) });
        expected.push({ listener, host, refused: true });
      }
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
        answers.push({ listener, host, refused: isHostRefusal(await requestWithHost(port, host)) });
        expected.push({ listener, host, refused: false });
      }
    }
    expect(answers).toEqual(expected);
  });

  it("runs nothing behind a refusal: a correctly signed admin call for another host creates no user", async () => {
    const { credentials } = runtimeFile();
    const port = running.listeners.IDENTITY_PORT as number;
    const username = "rebinding-victim";
    const body = JSON.stringify({ UserPoolId: LOCAL_STAFF_POOL.id, Username: username, MessageAction: "SUPPRESS" });
    const timestamp = toAmzDate(new Date());
    const headers: Record<string, string> = {
      host: `evil.example:${port}`,
      "content-type": "application/x-amz-json-1.1",
      "x-amz-target": "AWSCognitoIdentityProviderService.AdminCreateUser",
      "x-amz-date": timestamp,
    };
    const scope = { date: timestamp.slice(0, 8), region: LOCAL_REGION, service: "cognito-idp", timestamp };
    headers.authorization = authorizationHeader(credentials, { method: "POST", url: "/", headers }, body, scope);
    const answer = await requestWithHost(port, headers.host as string, { method: "POST", headers, body });
    expect(isHostRefusal(answer)).toBe(true);

    const cognito = new CognitoIdentityProviderClient({
      endpoint: runtimeFile().identity.endpoint,
      region: LOCAL_REGION,
      credentials,
    });
    try {
      await expect(
        cognito.send(new AdminGetUserCommand({ UserPoolId: LOCAL_STAFF_POOL.id, Username: username })),
      ).rejects.toMatchObject({ name: "UserNotFoundException" });
    } finally {
      cognito.destroy();
    }
  });
});

describe("the access key the local engines check", () => {
  it("is random per data directory, kept in it for its owner alone, and what runtime.json gives the ops command", async () => {
    const kept = storedCredentials(dataDir);
    expect(runtimeFile().credentials).toEqual(kept);
    expect(localCredentialsIn(dataDir)).toEqual(kept);
    expect(statSync(path.join(dataDir, "credentials.json")).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dataDir, "runtime.json")).mode & 0o777).toBe(0o600);

    const otherDir = mkdtempSync(path.join(os.tmpdir(), "verification-api-hosts-other-"));
    const other = await startRuntime({ LOCAL_DATA_DIR: otherDir });
    try {
      const otherKey = storedCredentials(otherDir);
      expect(runtimeFile(otherDir).credentials).toEqual(otherKey);
      expect(otherKey.accessKeyId).not.toBe(kept.accessKeyId);
      expect(otherKey.secretAccessKey).not.toBe(kept.secretAccessKey);
    } finally {
      await stopRuntime(other);
      rmSync(otherDir, { recursive: true, force: true });
    }
  }, 120_000);

  it("is taken by the identity endpoint's admin API and the S3 engine, which refuse the old public constants", async () => {
    const runtime = runtimeFile();
    const old = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
    const users = (credentials: LocalCredentials) => {
      const cognito = new CognitoIdentityProviderClient({
        endpoint: runtime.identity.endpoint,
        region: LOCAL_REGION,
        credentials,
      });
      return cognito.send(new ListUsersCommand({ UserPoolId: LOCAL_STAFF_POOL.id })).finally(() => cognito.destroy());
    };
    const objects = (credentials: LocalCredentials) => {
      const s3 = new S3Client({
        endpoint: runtime.s3_endpoint,
        region: LOCAL_REGION,
        credentials,
        forcePathStyle: true,
      });
      return s3.send(new ListObjectsV2Command({ Bucket: LOCAL_BUCKET })).finally(() => s3.destroy());
    };
    await expect(users(old)).rejects.toMatchObject({ name: "UnrecognizedClientException" });
    await expect(objects(old)).rejects.toMatchObject({ name: "InvalidAccessKeyId" });
    expect((await users(runtime.credentials)).Users?.length).toBeGreaterThan(0);
    expect((await objects(runtime.credentials)).$metadata.httpStatusCode).toBe(200);

    // DynamoDB Local checks no signature: its guard is the host check above.
    const dynamo = new DynamoDBClient({
      endpoint: runtime.dynamodb_endpoint,
      region: LOCAL_REGION,
      credentials: runtime.credentials,
    });
    try {
      expect((await dynamo.send(new ListTablesCommand({}))).TableNames?.length).toBeGreaterThan(0);
    } finally {
      dynamo.destroy();
    }
  });
});
