/**
 * The e-Devlet canary: one lookup of the canary's barcode, counted with the others; passed only
 * on the documented negative, and `EdevletCanaryFailed` raised for anything else.
 */
import { describe, expect, it } from "vitest";
import { CANARY_LOOKUP } from "#shared/domain/edevlet";
import type { IssuerAnswer, IssuerLookup } from "#shared/ports/authority";
import { CANARY_NAME, runCanary } from "#shared/use-cases/issuer/canary";
import { RecordingLog } from "../../support/fakes.ts";

async function canaryMeeting(answer: IssuerAnswer) {
  const asked: IssuerLookup[] = [];
  const log = new RecordingLog();
  const result = await runCanary({
    authority: {
      lookup: async (request) => {
        asked.push(request);
        return answer;
      },
    },
    log,
    environment: "production",
  });
  return { result, asked, log };
}

describe("the e-Devlet canary", () => {
  it("passes on the documented negative, asking once for the canary's barcode, the lookup counted", async () => {
    const { result, asked, log } = await canaryMeeting({ kind: "not_found" });
    expect(result).toBe("passed");
    expect(asked).toEqual([{ documentType: "YOK_STUDENT", ...CANARY_LOOKUP }]);
    expect(log.lookups).toEqual([{ environment: "production", outcome: "not_found", verificationId: CANARY_NAME }]);
    expect(log.counts).toEqual([]);
  });

  it.each([
    [{ kind: "unavailable", cause: "unrecognised" }, "unavailable_unrecognised"],
    [{ kind: "unavailable", cause: "timeout" }, "unavailable_timeout"],
    [{ kind: "found", document: new Uint8Array([0x25]) }, "found"],
  ] satisfies [IssuerAnswer, string][])("fails on %o and raises EdevletCanaryFailed", async (answer, outcome) => {
    const { result, log } = await canaryMeeting(answer);
    expect(result).toBe("failed");
    expect(log.counts.map(({ metric, attributes }) => [metric, attributes])).toEqual([
      ["EdevletCanaryFailed", { outcome }],
    ]);
  });
});
