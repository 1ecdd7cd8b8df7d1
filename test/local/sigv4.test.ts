/**
 * The local services' SigV4 check against AWS's published test suite (the `get-vanilla` case:
 * its credentials, date, request and signature), so the check agrees with AWS and not only with
 * the signer beside it.
 */
import { describe, expect, it } from "vitest";
import { authorizationHeader, headerSignatureRefusal, parseAuthorization } from "../../local/sigv4.ts";

const CREDENTIALS = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const VANILLA = {
  method: "GET",
  url: "/",
  headers: { host: "example.amazonaws.com", "x-amz-date": "20150830T123600Z" },
};
const VANILLA_AUTHORIZATION =
  "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31";
const AT = Date.UTC(2015, 7, 30, 12, 36, 0);

describe("SigV4 as the local services check it", () => {
  it("signs AWS's get-vanilla request with AWS's signature", () => {
    const scope = { date: "20150830", region: "us-east-1", service: "service", timestamp: "20150830T123600Z" };
    expect(authorizationHeader(CREDENTIALS, VANILLA, "", scope)).toBe(VANILLA_AUTHORIZATION);
  });

  it("takes AWS's signature of it, and refuses it once the request differs in anything signed", () => {
    const check = { service: "service", credentials: CREDENTIALS, now: AT };
    const signed = { ...VANILLA, headers: { ...VANILLA.headers, authorization: VANILLA_AUTHORIZATION } };
    expect(headerSignatureRefusal(signed, Buffer.alloc(0), check)).toBeUndefined();
    const refused = { type: "InvalidSignatureException" };
    expect(headerSignatureRefusal({ ...signed, method: "POST" }, Buffer.alloc(0), check)).toMatchObject(refused);
    expect(headerSignatureRefusal({ ...signed, url: "/?a=1" }, Buffer.alloc(0), check)).toMatchObject(refused);
    expect(headerSignatureRefusal(signed, Buffer.from("x"), check)).toMatchObject(refused);
    expect(
      headerSignatureRefusal(
        { ...signed, headers: { ...signed.headers, host: "example.org" } },
        Buffer.alloc(0),
        check,
      ),
    ).toMatchObject(refused);
    expect(
      headerSignatureRefusal(signed, Buffer.alloc(0), {
        ...check,
        credentials: { ...CREDENTIALS, secretAccessKey: "x" },
      }),
    ).toMatchObject(refused);
    // Another service's signing name in the scope.
    expect(headerSignatureRefusal(signed, Buffer.alloc(0), { ...check, service: "cognito-idp" })).toMatchObject(
      refused,
    );
  });

  it("holds the timestamp to five minutes either side of the clock", () => {
    const signed = { ...VANILLA, headers: { ...VANILLA.headers, authorization: VANILLA_AUTHORIZATION } };
    const at = (now: number) =>
      headerSignatureRefusal(signed, Buffer.alloc(0), { service: "service", credentials: CREDENTIALS, now });
    expect(at(AT + 5 * 60_000)).toBeUndefined();
    expect(at(AT - 5 * 60_000)).toBeUndefined();
    expect(at(AT + 5 * 60_000 + 1000)).toMatchObject({
      type: "InvalidSignatureException",
      message: "Signature expired: 20150830T123600Z is now earlier than 20150830T123601Z (20150830T124101Z - 5 min.)",
    });
    expect(at(AT - 5 * 60_000 - 1000)).toMatchObject({
      type: "InvalidSignatureException",
      message: expect.stringMatching(/^Signature not yet current: 20150830T123600Z is still later than/),
    });
  });

  it("reads the parts of an Authorization header, and nothing that is not one", () => {
    expect(parseAuthorization(VANILLA_AUTHORIZATION)).toEqual({
      accessKeyId: "AKIDEXAMPLE",
      scope: "20150830/us-east-1/service/aws4_request",
      signedHeaders: ["host", "x-amz-date"],
      signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
    });
    expect(parseAuthorization("Bearer abc")).toBeUndefined();
    expect(parseAuthorization(VANILLA_AUTHORIZATION.replace("Signature=5", "Signature=Z"))).toBeUndefined();
  });
});
