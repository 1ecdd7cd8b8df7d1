/**
 * S3 as the local runtime's customers meet it: s3rver stores the objects but checks no
 * signature, so this small proxy in front of it does, as S3 does. A presigned URL's signature
 * is recomputed with the SDK's own presigner from the headers the request really carries (a
 * file of another size or type than the PUT was signed for is refused); a request signed in
 * its headers (the functions' own calls) is signed again by the SDK client's own signer and compared.
 * Anything else, an anonymous read, write or listing above all, is refused.
 */
import http from "node:http";
import type { S3Client } from "@aws-sdk/client-s3";
import { S3RequestPresigner } from "@aws-sdk/s3-request-presigner";
import { amzDate, parseAuthorization, sameSignature } from "./sigv4.ts";

type Refusal = { status: number; code: string; message: string };

const MISMATCH: Refusal = {
  status: 403,
  code: "SignatureDoesNotMatch",
  message: "The request signature we calculated does not match the signature you provided.",
};

function s3Error(res: http.ServerResponse, status: number, code: string, message: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  res.writeHead(status, { "Content-Type": "application/xml", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

/** The query parameters a presigned URL's signature adds; everything else in its query is signed. */
const PRESIGNING_PARAMETERS = new Set([
  "X-Amz-Algorithm",
  "X-Amz-Content-Sha256",
  "X-Amz-Credential",
  "X-Amz-Date",
  "X-Amz-Expires",
  "X-Amz-Security-Token",
  "X-Amz-Signature",
  "X-Amz-SignedHeaders",
]);

/** The request as the signer reads it: its signed headers with the values it really carries. */
function toSign(req: http.IncomingMessage, url: URL, names: string[], query: Record<string, string>) {
  const [hostname = "", port] = String(req.headers.host ?? "").split(":");
  return {
    method: req.method ?? "GET",
    protocol: "http:",
    hostname,
    port: port === undefined ? undefined : Number(port),
    path: url.pathname,
    query,
    headers: Object.fromEntries(names.map((name) => [name, String(req.headers[name] ?? "")])),
  };
}

/**
 * Why a presigned request must be refused, or undefined when its signature holds: the URL
 * signed again by the SDK's presigner, from the method, path, query and signed headers the
 * request really carries (a file of another size or type than a PUT was signed for fails).
 */
async function presignedRefusal(
  presigner: S3Client,
  req: http.IncomingMessage,
  url: URL,
): Promise<Refusal | undefined> {
  const query = url.searchParams;
  const signed = amzDate(query.get("X-Amz-Date") ?? "");
  const lifetime = Number(query.get("X-Amz-Expires"));
  if (!signed || !Number.isInteger(lifetime)) {
    return { status: 403, code: "AuthorizationQueryParametersError", message: "Malformed presigned URL" };
  }
  if (Date.now() > signed.getTime() + lifetime * 1000) {
    return { status: 403, code: "AccessDenied", message: "Request has expired" };
  }
  const names = (query.get("X-Amz-SignedHeaders") ?? "").split(";").filter((name) => name !== "");
  const rest = Object.fromEntries([...query].filter(([name]) => !PRESIGNING_PARAMETERS.has(name)));
  const again = await new S3RequestPresigner({ ...presigner.config }).presign(toSign(req, url, names, rest), {
    expiresIn: lifetime,
    signingDate: signed,
    signableHeaders: new Set(names),
  });
  const computed = again.query?.["X-Amz-Signature"];
  return typeof computed === "string" && sameSignature(query.get("X-Amz-Signature") ?? "", computed)
    ? undefined
    : MISMATCH;
}

/** Why a request signed in its `Authorization` header must be refused, or undefined when the signature holds. */
async function headerRefusal(
  presigner: S3Client,
  req: http.IncomingMessage,
  url: URL,
  authorization: string,
): Promise<Refusal | undefined> {
  const parts = parseAuthorization(authorization);
  const signed = amzDate(String(req.headers["x-amz-date"] ?? ""));
  if (!parts || !signed)
    return { status: 400, code: "AuthorizationHeaderMalformed", message: "Malformed Authorization" };
  if (parts.accessKeyId !== (await presigner.config.credentials()).accessKeyId) {
    return { status: 403, code: "InvalidAccessKeyId", message: "The access key does not exist in our records." };
  }
  const names = parts.signedHeaders;
  const region = await presigner.config.region();
  const signer = await presigner.config.signer({
    name: "sigv4",
    signingName: "s3",
    signingRegion: region,
    properties: {},
  });
  const again = await signer.sign(toSign(req, url, names, Object.fromEntries(url.searchParams)), {
    signingDate: signed,
    signableHeaders: new Set(names),
  });
  const computed = /Signature=([0-9a-f]{64})/.exec(String(again.headers.authorization ?? ""))?.[1];
  return computed !== undefined && sameSignature(parts.signature, computed) ? undefined : MISMATCH;
}

/** Why a request must be refused: unsigned, or signed wrongly; undefined when S3 would take it. */
function refusal(presigner: S3Client, req: http.IncomingMessage, url: URL): Promise<Refusal | undefined> {
  if (url.searchParams.has("X-Amz-Signature")) {
    return presignedRefusal(presigner, req, url);
  }
  const authorization = req.headers.authorization;
  if (authorization) return headerRefusal(presigner, req, url, authorization);
  return Promise.resolve({ status: 403, code: "AccessDenied", message: "Access Denied" });
}

/**
 * A server that checks every request's signature and forwards those that hold to the store at `upstream`.
 * `presigner` must be configured as the functions' S3 client is (same endpoint, same
 * credentials): its presigner and its signer compute the signatures they made.
 * `presigner` must be configured as the functions' S3 client is (same endpoint, same
 * credentials), so it computes the same signature they issued.
 */
export function createSignatureCheckServer(presigner: S3Client, upstream: { host: string; port: number }): http.Server {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://s3.local");
    const forward = () => {
      const upstreamReq = http.request(
        { host: upstream.host, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          upstreamRes.pipe(res);
        },
      );
      upstreamReq.on("error", () => s3Error(res, 503, "ServiceUnavailable", "The local store is not reachable"));
      req.pipe(upstreamReq);
    };
    refusal(presigner, req, url).then(
      (problem) => {
        if (!problem) return forward();
        req.resume();
        s3Error(res, problem.status, problem.code, problem.message);
      },
      () => {
        req.resume();
        s3Error(res, 400, "InvalidRequest", "The presigned request could not be checked");
      },
    );
  });
}
