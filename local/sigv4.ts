/**
 * AWS Signature Version 4 as the local services check it: the parts of an `Authorization`
 * header, the `X-Amz-Date` timestamp, signatures compared in constant time, and a request signed
 * in its headers checked whole (method, path, query, signed headers and the body's SHA-256) for a
 * service of the JSON protocols, which answers what AWS answers to a missing or wrong signature.
 * S3 signs its own way (paths encoded once, presigned URLs, unsigned payloads); its check
 * (`s3-signature-check.ts`) shares the parsing and the comparison.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** Parses `20261122T120000Z`, the form of `X-Amz-Date`. */
export function amzDate(value: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s));
}

/** `Date` as `X-Amz-Date` writes it. */
export function toAmzDate(date: Date): string {
  return date.toISOString().replace(/[-:]|\.\d{3}/g, "");
}

export interface Authorization {
  accessKeyId: string;
  /** The credential scope after the key id: `<yyyymmdd>/<region>/<service>/aws4_request` when well formed. */
  scope: string;
  signedHeaders: string[];
  signature: string;
}

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/([^,]+), ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/** The parts of an `Authorization` header signed with SigV4; undefined when it is not one. */
export function parseAuthorization(header: string): Authorization | undefined {
  const match = AUTHORIZATION.exec(header);
  if (!match) return undefined;
  const [, accessKeyId = "", scope = "", signedHeaders = "", signature = ""] = match;
  return { accessKeyId, scope, signedHeaders: signedHeaders.split(";"), signature };
}

/** Whether two hex signatures are the same, in a time that does not depend on where they differ. */
export function sameSignature(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const sha256Hex = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

/** RFC 3986 encoding, as SigV4 encodes each part of the canonical request. */
function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Decodes a query part as it came on the wire; a malformed escape is kept as written. */
function decodeQueryPart(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The canonical URI of every service but S3: the path as sent, without `.` and `..` segments,
 * encoded once more (the path on the wire is encoded already, and SigV4 encodes it again).
 */
function canonicalPath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  const trailing = segments.length > 0 && path.endsWith("/") ? "/" : "";
  return encodeRfc3986(`/${segments.join("/")}${trailing}`).replace(/%2F/g, "/");
}

/** Every parameter of the query, each name and value encoded, sorted by name, then by value. */
function canonicalQuery(query: string): string {
  return query
    .split("&")
    .filter((pair) => pair !== "")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const [name, value] = equals < 0 ? [pair, ""] : [pair.slice(0, equals), pair.slice(equals + 1)];
      return [encodeRfc3986(decodeQueryPart(name)), encodeRfc3986(decodeQueryPart(value))] as const;
    })
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

export interface SignedRequest {
  method: string;
  /** The path and query as on the wire: `IncomingMessage.url`. */
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** The canonical request SigV4 signs: what the signature covers of `request`. */
export function canonicalRequest(
  request: SignedRequest,
  signedHeaders: readonly string[],
  payloadHash: string,
): string {
  const queryAt = request.url.indexOf("?");
  const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
  const query = queryAt < 0 ? "" : request.url.slice(queryAt + 1);
  const headerLines = signedHeaders.map((name) => {
    const raw = request.headers[name];
    const value = Array.isArray(raw) ? raw.join(",") : (raw ?? "");
    return `${name}:${value
      .replace(/[\r\n]/g, " ")
      .replace(/[ \t]+/g, " ")
      .trim()}\n`;
  });
  return [
    request.method.toUpperCase(),
    canonicalPath(path),
    canonicalQuery(query),
    headerLines.join(""),
    signedHeaders.join(";"),
    payloadHash,
  ].join("\n");
}

export interface Scope {
  /** `yyyymmdd` */
  date: string;
  region: string;
  service: string;
}

/** The signature of a canonical request: the string to sign, HMAC'd with the key derived for the scope. */
export function signatureOf(secretAccessKey: string, timestamp: string, scope: Scope, canonical: string): string {
  const credentialScope = `${scope.date}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", timestamp, credentialScope, sha256Hex(canonical)].join("\n");
  const dateKey = hmac(`AWS4${secretAccessKey}`, scope.date);
  const signingKey = hmac(hmac(hmac(dateKey, scope.region), scope.service), "aws4_request");
  return createHmac("sha256", signingKey).update(stringToSign).digest("hex");
}

/** An `Authorization` header for `request`: what a client signing with `credentials` sends. */
export function authorizationHeader(
  credentials: SigningCredentials,
  request: SignedRequest,
  body: string | Buffer,
  scope: Scope & { timestamp: string },
): string {
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const signedHeaders = Object.keys(headers).sort();
  const canonical = canonicalRequest({ ...request, headers }, signedHeaders, sha256Hex(body));
  const signature = signatureOf(credentials.secretAccessKey, scope.timestamp, scope, canonical);
  return `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope.date}/${scope.region}/${scope.service}/aws4_request, SignedHeaders=${signedHeaders.join(";")}, Signature=${signature}`;
}

/** Why a JSON-protocol service refuses a request's signature: its `__type` and message, as AWS answers. */
export interface SignatureRefusal {
  type:
    | "MissingAuthenticationTokenException"
    | "IncompleteSignatureException"
    | "UnrecognizedClientException"
    | "InvalidSignatureException";
  message: string;
}

/** How far a request's timestamp may be from the clock, either way, as AWS allows. */
const SKEW_MS = 5 * 60_000;

const MISMATCH: SignatureRefusal = {
  type: "InvalidSignatureException",
  message:
    "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.",
};

export interface HeaderSignatureCheck {
  /** The signing name the scope must carry, `cognito-idp` for instance. */
  service: string;
  credentials: SigningCredentials;
  /** Headers that must be among the signed ones, besides `host` and `x-amz-date`. */
  mustSign?: readonly string[];
  /** Epoch milliseconds: the clock the timestamp is held to. */
  now: number;
}

/**
 * Why a request signed in its headers must be refused, or undefined when its signature holds:
 * the canonical request is built again from what the request carries and signed with the
 * secret of the key it names, in the region its scope names.
 */
export function headerSignatureRefusal(
  request: SignedRequest,
  body: Buffer,
  check: HeaderSignatureCheck,
): SignatureRefusal | undefined {
  const header = request.headers.authorization;
  if (header === undefined || header === "") {
    return { type: "MissingAuthenticationTokenException", message: "Missing Authentication Token" };
  }
  const authorization = parseAuthorization(String(header));
  if (!authorization) {
    return {
      type: "IncompleteSignatureException",
      message: `Authorization header requires 'Credential', 'SignedHeaders' and 'Signature' parameters of the AWS4-HMAC-SHA256 algorithm. Authorization=${String(header).split(" ")[0]}`,
    };
  }
  const timestamp = String(request.headers["x-amz-date"] ?? "");
  const signedAt = amzDate(timestamp);
  if (!signedAt) {
    return {
      type: "IncompleteSignatureException",
      message: "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.",
    };
  }
  for (const name of ["host", "x-amz-date", ...(check.mustSign ?? [])]) {
    if (!authorization.signedHeaders.includes(name)) {
      return { type: "IncompleteSignatureException", message: `'${name}' must be a signed header.` };
    }
  }
  if (authorization.accessKeyId !== check.credentials.accessKeyId || request.headers["x-amz-security-token"]) {
    return { type: "UnrecognizedClientException", message: "The security token included in the request is invalid." };
  }
  const [date = "", region = "", service = "", terminator = "", ...rest] = authorization.scope.split("/");
  if (date !== timestamp.slice(0, 8)) {
    return {
      type: "InvalidSignatureException",
      message: `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${date}' != '${timestamp.slice(0, 8)}', from '${timestamp}'.`,
    };
  }
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(region)) {
    return { type: "InvalidSignatureException", message: "Credential should be scoped to a valid region." };
  }
  if (service !== check.service) {
    return {
      type: "InvalidSignatureException",
      message: `Credential should be scoped to correct service: '${check.service}'.`,
    };
  }
  if (terminator !== "aws4_request" || rest.length > 0) {
    return {
      type: "InvalidSignatureException",
      message: `Credential should be scoped with a valid terminator: 'aws4_request', not '${[terminator, ...rest].join("/")}'.`,
    };
  }
  const canonical = canonicalRequest(request, authorization.signedHeaders, sha256Hex(body));
  const expected = signatureOf(check.credentials.secretAccessKey, timestamp, { date, region, service }, canonical);
  if (!sameSignature(authorization.signature, expected)) return MISMATCH;
  // Checked once the signature holds, as AWS does: a forged request learns nothing of the clock.
  const now = toAmzDate(new Date(check.now));
  if (signedAt.getTime() < check.now - SKEW_MS) {
    return {
      type: "InvalidSignatureException",
      message: `Signature expired: ${timestamp} is now earlier than ${toAmzDate(new Date(check.now - SKEW_MS))} (${now} - 5 min.)`,
    };
  }
  if (signedAt.getTime() > check.now + SKEW_MS) {
    return {
      type: "InvalidSignatureException",
      message: `Signature not yet current: ${timestamp} is still later than ${toAmzDate(new Date(check.now + SKEW_MS))} (${now} + 5 min.)`,
    };
  }
  return undefined;
}
