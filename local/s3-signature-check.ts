/**
 * S3 as the local runtime's customers meet it: s3rver stores the objects but does not
 * check SigV4 signatures, so this small proxy in front of it recomputes each presigned
 * PUT's signature with the SDK's own presigner, from the headers the request really
 * carries. A file of another size or type than the URL was signed for is refused, as S3
 * refuses it. Requests signed in headers (the functions' own calls) pass straight through.
 */
import http from "node:http";
import { PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";

function s3Error(res: http.ServerResponse, status: number, code: string, message: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  res.writeHead(status, { "Content-Type": "application/xml", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

/** Parses `20261122T120000Z`. */
function amzDate(value: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s));
}

/** Why a presigned PUT must be refused, or undefined when its signature holds. */
async function refusal(
  presigner: S3Client,
  req: http.IncomingMessage,
  url: URL,
): Promise<{ status: number; code: string; message: string } | undefined> {
  const query = url.searchParams;
  const signed = amzDate(query.get("X-Amz-Date") ?? "");
  const lifetime = Number(query.get("X-Amz-Expires"));
  if (!signed || !Number.isInteger(lifetime)) {
    return { status: 403, code: "AuthorizationQueryParametersError", message: "Malformed presigned URL" };
  }
  if (Date.now() > signed.getTime() + lifetime * 1000) {
    return { status: 403, code: "AccessDenied", message: "Request has expired" };
  }
  const [, bucket, ...keyParts] = url.pathname.split("/");
  const length = req.headers["content-length"];
  const expected = await getSignedUrl(
    presigner,
    new PutObjectCommand({
      Bucket: decodeURIComponent(bucket ?? ""),
      Key: keyParts.map(decodeURIComponent).join("/"),
      ContentType: req.headers["content-type"],
      ContentLength: length === undefined ? undefined : Number(length),
    }),
    { expiresIn: lifetime, signingDate: signed, signableHeaders: new Set(["content-type", "content-length"]) },
  );
  if (new URL(expected).searchParams.get("X-Amz-Signature") !== query.get("X-Amz-Signature")) {
    return {
      status: 403,
      code: "SignatureDoesNotMatch",
      message: "The request signature we calculated does not match the signature you provided.",
    };
  }
  return undefined;
}

/**
 * A server that checks presigned PUTs and forwards everything to the store at `upstream`.
 * `presigner` must be configured as the functions' S3 client is (same endpoint, same
 * credentials), so it computes the same signature they issued.
 */
export function createSignatureCheckServer(presigner: S3Client, upstream: { host: string; port: number }): http.Server {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://s3.local");
    const presignedPut = req.method === "PUT" && url.searchParams.has("X-Amz-Signature");
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
    if (!presignedPut) return forward();
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
