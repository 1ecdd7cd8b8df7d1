/**
 * Every cassette in test/fixtures/edevlet/ (one folder each, `cassette.json` as `ops issuer record`
 * writes it) replayed through the adapter it was recorded with: a server answers each request
 * with the recorded answer, in order, and the adapter must classify the lookup as it did when it
 * was recorded. A recorded PDF is served as a stand-in PDF; the identity number is any valid one.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { edevletFormAuthority } from "#shared/adapters/edevlet/form";
import { edevletMobileAuthority } from "#shared/adapters/edevlet/mobile";
import { isIdentityNumber } from "#shared/domain/certificates/keys";
import { CANARY_LOOKUP, EDEVLET_FORM } from "#shared/domain/edevlet";
import type { RecordedExchange } from "#shared/ports/authority";
import { type Cassette, classificationOf, REDACTED_COOKIE, REDACTED_NUMBER } from "#shared/use-cases/issuer/cassette";

const FIXTURES = path.resolve(__dirname, "../fixtures/edevlet");
const CASSETTES = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
/** The number the replays ask with: any valid one, as the cassettes hold none. */
const NUMBER = CANARY_LOOKUP.identityNumber;
/** Headers that describe the recorded bytes on the wire, not the answer: the replay's own are sent. */
const WIRE_HEADERS = new Set(["content-length", "transfer-encoding", "connection", "keep-alive", "content-encoding"]);

let server: Server;
let url = "";
let playing: { exchanges: RecordedExchange[]; next: number; mismatches: string[] } = {
  exchanges: [],
  next: 0,
  mismatches: [],
};

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const recorded = playing.exchanges[playing.next];
      const asked = `${request.method} ${(request.url ?? "").replaceAll(NUMBER, REDACTED_NUMBER)}`;
      if (!recorded || asked !== `${recorded.method} ${recorded.path}`) {
        playing.mismatches.push(
          `${asked} where the cassette has ${recorded ? `${recorded.method} ${recorded.path}` : "nothing"}`,
        );
        response.writeHead(599).end();
        return;
      }
      playing.next += 1;
      const headers = Object.fromEntries(Object.entries(recorded.headers).filter(([name]) => !WIRE_HEADERS.has(name)));
      const body =
        "base64" in recorded.body
          ? Buffer.from(recorded.body.base64, "base64")
          : Buffer.from(
              `%PDF-1.7\n% the recorded copy: sha256 ${recorded.body.pdf.sha256}, ${recorded.body.pdf.size} bytes\n%%EOF\n`,
            );
      response.writeHead(recorded.status, headers).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("the recorded cassettes, replayed through the adapter", () => {
  it("are there: one for each of the simulator's behaviours at least", () => {
    expect(CASSETTES.length).toBeGreaterThanOrEqual(15);
  });

  it.each(CASSETTES)("%s", async (name) => {
    const cassette = JSON.parse(readFileSync(path.join(FIXTURES, name, "cassette.json"), "utf8")) as Cassette;
    // A cassette never holds a T.C. number (eleven digits standing alone whose check digits hold), nor a cookie's value.
    const text = JSON.stringify(cassette);
    const numbers = [...text.matchAll(/(?<![0-9A-Za-z])[1-9]\d{10}(?![0-9A-Za-z])/g)].map(([found]) => found);
    expect(numbers.filter(isIdentityNumber)).toEqual([]);
    for (const exchange of cassette.exchanges) {
      if (exchange.form?.[EDEVLET_FORM.fields.identityNumber]) {
        expect(exchange.form[EDEVLET_FORM.fields.identityNumber]).toBe(REDACTED_NUMBER);
      }
      for (const cookie of exchange.headers["set-cookie"] ?? [])
        expect(cookie).toMatch(new RegExp(`^[^=]*=${REDACTED_COOKIE}(;|$)`));
    }
    playing = { exchanges: cassette.exchanges, next: 0, mismatches: [] };
    const authority = cassette.protocol === "mobile" ? edevletMobileAuthority({ url }) : edevletFormAuthority({ url });
    const answer = await authority.lookup({
      documentType: "YOK_STUDENT",
      barcode: cassette.barcode,
      identityNumber: NUMBER,
    });
    expect(playing.mismatches).toEqual([]);
    expect(classificationOf(answer)).toBe(cassette.classification);
    expect(playing.next).toBe(cassette.exchanges.length);
  });
});
