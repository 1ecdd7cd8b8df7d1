/**
 * The local identity endpoint answers the operations Cognito authorizes with IAM only when they
 * come signed (SigV4) with the local credentials, as Cognito answers them only with AWS
 * credentials; the calls a page makes need no signature. Through the SDK's own client, and over
 * raw HTTP where a request the SDK would never send is the point.
 */
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  type CognitoIdentityProviderClientConfig,
  ListUsersCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newLocalCredentials } from "../../local/engines.ts";
import { ADMIN_OPERATIONS } from "../../local/identity/admin.ts";
import { type PoolConfig, startIdentity } from "../../local/identity.ts";
import { authorizationHeader, toAmzDate } from "../../local/sigv4.ts";

/** The access key the local engines take, new for this file as `npm start` makes one per data directory. */
const CREDENTIALS = newLocalCredentials();

const POOL: PoolConfig = { id: "us-east-1_TestSigned", clientIds: ["signedconsole"], groups: ["admins"], mfa: "off" };
const TARGET = "AWSCognitoIdentityProviderService.";

let identity: { url: string; stop(): Promise<void> };
const clients: CognitoIdentityProviderClient[] = [];

function clientOf(config: Partial<CognitoIdentityProviderClientConfig> = {}): CognitoIdentityProviderClient {
  const client = new CognitoIdentityProviderClient({
    region: "us-east-1",
    endpoint: identity.url,
    credentials: CREDENTIALS,
    ...config,
  });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  identity = await startIdentity({ credentials: CREDENTIALS, port: 0, pools: [POOL] });
});
afterAll(async () => {
  for (const client of clients) client.destroy();
  await identity.stop();
});

/** One call over raw HTTP: `sign` names the headers signed, or nothing to send it unsigned. */
async function rawCall(operation: string, input: unknown, sign?: { headers: string[]; secret?: string }) {
  const body = JSON.stringify(input);
  const now = new Date();
  const headers: Record<string, string> = {
    host: new URL(identity.url).host,
    "content-type": "application/x-amz-json-1.1",
    "x-amz-target": `${TARGET}${operation}`,
    "x-amz-date": toAmzDate(now),
  };
  if (sign) {
    const signed = Object.fromEntries(sign.headers.map((name) => [name, headers[name] ?? ""]));
    headers.authorization = authorizationHeader(
      { ...CREDENTIALS, secretAccessKey: sign.secret ?? CREDENTIALS.secretAccessKey },
      { method: "POST", url: "/", headers: signed },
      body,
      {
        date: headers["x-amz-date"]?.slice(0, 8) ?? "",
        region: "us-east-1",
        service: "cognito-idp",
        timestamp: headers["x-amz-date"] ?? "",
      },
    );
  }
  const response = await fetch(identity.url, { method: "POST", headers, body });
  return {
    status: response.status,
    errorType: response.headers.get("x-amzn-errortype"),
    text: await response.text(),
  };
}

const ALL_SIGNED = ["host", "content-type", "x-amz-target", "x-amz-date"];

/** Whether a user exists, asked with a properly signed call. */
async function exists(username: string): Promise<boolean> {
  try {
    await clientOf().send(new AdminGetUserCommand({ UserPoolId: POOL.id, Username: username }));
    return true;
  } catch (error) {
    if ((error as Error).name === "UserNotFoundException") return false;
    throw error;
  }
}

describe("the operations Cognito authorizes with IAM", () => {
  // Those the member lifecycle and the ops command use; every one of them is signed-only.
  const REQUIRED = [
    "AdminCreateUser",
    "AdminSetUserPassword",
    "AdminAddUserToGroup",
    "AdminRemoveUserFromGroup",
    "AdminDeleteUser",
    "AdminDisableUser",
    "AdminEnableUser",
    "AdminUserGlobalSignOut",
    "AdminGetUser",
    "AdminListGroupsForUser",
    "ListUsers",
  ];

  it("are all among the operations that need a signature", () => {
    expect(Object.keys(ADMIN_OPERATIONS)).toEqual(expect.arrayContaining(REQUIRED));
  });

  it.each(Object.keys(ADMIN_OPERATIONS))("refuses %s unsigned, as Cognito does: 400 with no token", async (name) => {
    const answer = await rawCall(name, { UserPoolId: POOL.id, Username: "unsigned-victim", GroupName: "admins" });
    expect(answer).toMatchObject({ status: 400, errorType: "MissingAuthenticationTokenException" });
    expect(JSON.parse(answer.text)).toEqual({
      __type: "MissingAuthenticationTokenException",
      message: "Missing Authentication Token",
    });
  });

  it("creates no user for an unsigned AdminCreateUser, and does for a signed one", async () => {
    const unsigned = await rawCall("AdminCreateUser", {
      UserPoolId: POOL.id,
      Username: "would-be-admin",
      TemporaryPassword: "Temporary-pass-1",
      MessageAction: "SUPPRESS",
    });
    expect(unsigned.errorType).toBe("MissingAuthenticationTokenException");
    expect(await exists("would-be-admin")).toBe(false);

    const { User } = await clientOf().send(
      new AdminCreateUserCommand({ UserPoolId: POOL.id, Username: "signed-admin", MessageAction: "SUPPRESS" }),
    );
    expect(User?.Username).toBe("signed-admin");
    expect(await exists("signed-admin")).toBe(true);
  });

  it("takes the region from the signature's scope", async () => {
    const elsewhere = clientOf({ region: "eu-central-1" });
    expect((await elsewhere.send(new ListUsersCommand({ UserPoolId: POOL.id }))).Users).toEqual(expect.any(Array));
  });

  it("refuses a wrong secret, an unknown key and a stale signature as Cognito does", async () => {
    const list = new ListUsersCommand({ UserPoolId: POOL.id });
    await expect(
      clientOf({ credentials: { ...CREDENTIALS, secretAccessKey: "not-the-secret" } }).send(list),
    ).rejects.toMatchObject({
      name: "InvalidSignatureException",
      message: expect.stringContaining("The request signature we calculated does not match"),
      $metadata: { httpStatusCode: 400 },
    });
    await expect(
      clientOf({ credentials: { accessKeyId: "AKIDUNKNOWN", secretAccessKey: "whatever" } }).send(list),
    ).rejects.toMatchObject({
      name: "UnrecognizedClientException",
      message: "The security token included in the request is invalid.",
    });
    // Ten minutes behind; one attempt, so the SDK does not correct its clock and try again.
    await expect(clientOf({ systemClockOffset: -10 * 60_000, maxAttempts: 1 }).send(list)).rejects.toMatchObject({
      name: "InvalidSignatureException",
      message: expect.stringMatching(/^Signature expired: \d{8}T\d{6}Z is now earlier than/),
    });
  });

  it("refuses a signed request changed after signing: its body, or its operation", async () => {
    await clientOf().send(
      new AdminCreateUserCommand({ UserPoolId: POOL.id, Username: "alice", MessageAction: "SUPPRESS" }),
    );
    type Sent = { body: string | Uint8Array; headers: Record<string, string> };
    const tampering = (change: (request: { body: string; headers: Record<string, string> }) => void) => {
      const client = clientOf({ maxAttempts: 1 });
      // Last of the step that signs: the signature is made by then.
      client.middlewareStack.add(
        (next) => async (args) => {
          const request = args.request as Sent;
          const sent = { body: Buffer.from(request.body).toString("utf8"), headers: request.headers };
          change(sent);
          request.body = sent.body;
          return next(args);
        },
        { step: "finalizeRequest", priority: "low", name: "changeAfterSigning" },
      );
      return client;
    };
    // Another user, in a body of the same length.
    const otherUser = tampering((request) => {
      request.body = request.body.replace('"alice"', '"mallo"');
    });
    await expect(
      otherUser.send(new AdminGetUserCommand({ UserPoolId: POOL.id, Username: "alice" })),
    ).rejects.toMatchObject({ name: "InvalidSignatureException" });
    // A harmless read's signature, replayed as a deletion of the same user.
    const otherOperation = tampering((request) => {
      request.headers["x-amz-target"] = `${TARGET}AdminDeleteUser`;
    });
    await expect(
      otherOperation.send(new AdminGetUserCommand({ UserPoolId: POOL.id, Username: "alice" })),
    ).rejects.toMatchObject({ name: "InvalidSignatureException" });
    expect(await exists("alice")).toBe(true);
  });

  it("refuses a signature that leaves the operation unsigned, and takes one that covers it", async () => {
    const input = { UserPoolId: POOL.id };
    const unsignedTarget = await rawCall("ListUsers", input, { headers: ["host", "x-amz-date", "content-type"] });
    expect(unsignedTarget).toMatchObject({ status: 400, errorType: "IncompleteSignatureException" });
    expect(await rawCall("ListUsers", input, { headers: ALL_SIGNED })).toMatchObject({ status: 200 });
    expect(await rawCall("ListUsers", input, { headers: ALL_SIGNED, secret: "another-secret" })).toMatchObject({
      status: 400,
      errorType: "InvalidSignatureException",
    });
  });

  it("answers the calls a page makes without a signature, as Cognito does", async () => {
    const signIn = await rawCall("InitiateAuth", {
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: "signedconsole",
      AuthParameters: { USERNAME: "nobody-here", PASSWORD: "Some-password-1" },
    });
    expect(signIn).toMatchObject({ status: 400, errorType: "NotAuthorizedException" });
    expect((await fetch(`${identity.url}/${POOL.id}/.well-known/jwks.json`)).status).toBe(200);
  });

  it.each(["constructor", "toString", "__proto__", "hasOwnProperty"])(
    "knows no operation named after an object's own property: %s",
    async (name) => {
      const answer = await rawCall(name, {}, { headers: ALL_SIGNED });
      expect(answer).toMatchObject({ status: 400, errorType: "UnknownOperationException" });
      // Above all, not the endpoint's own state, which holds the signing key.
      expect(answer.text).not.toContain('"d"');
    },
  );
});
