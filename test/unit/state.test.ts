import { describe, expect, it } from "vitest";
import { canTransition, isTerminal, STATUSES, TERMINAL_STATUSES, visibleStatus } from "#shared/domain/state";

describe("the verification state machine", () => {
  it("allows exactly the transitions the contract draws", () => {
    const allowed = STATUSES.flatMap((from) =>
      STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}->${to}`),
    );
    expect(allowed.sort()).toEqual(
      [
        "awaiting_upload->expired",
        "awaiting_upload->processing",
        "processing->completed",
        "processing->failed",
        "processing->in_review",
        "in_review->completed",
      ].sort(),
    );
  });

  it("has completed, failed and expired as its terminal states", () => {
    expect([...TERMINAL_STATUSES].sort()).toEqual(["completed", "expired", "failed"]);
    expect(isTerminal("processing")).toBe(false);
  });

  it("shows an awaited upload as expired from the deadline on, and nothing else", () => {
    const deadline = "2026-11-23T12:00:00Z";
    expect(visibleStatus("awaiting_upload", deadline, "2026-11-23T11:59:59Z")).toBe("awaiting_upload");
    expect(visibleStatus("awaiting_upload", deadline, deadline)).toBe("expired");
    expect(visibleStatus("processing", deadline, "2026-11-24T00:00:00Z")).toBe("processing");
  });
});
