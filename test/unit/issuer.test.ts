/**
 * The issuer's rules, pure: the backoff between retries, the retry window, and what a processor
 * does for each state of a verification's lookups and each message it holds.
 */
import { describe, expect, it } from "vitest";
import {
  afterUnavailable,
  answered,
  askerStep,
  claimed,
  DEFAULT_RETRY_WINDOW_SECONDS,
  type IssuerState,
  issuerMessageOf,
  LOOKUP_LEASE_SECONDS,
  processorStep,
  retryDelaySeconds,
  UNRECOGNISED_PAUSE_SECONDS,
  type UnavailableCause,
} from "#shared/domain/issuer";

const T0 = new Date("2026-11-22T12:00:00Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const middle = () => 0.5;

describe("the backoff", () => {
  it("starts at about 2 s and doubles, never more than 5 min apart", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 12].map((failed) => retryDelaySeconds(failed, middle))).toEqual([
      2, 4, 8, 16, 32, 64, 128, 256, 300, 300,
    ]);
  });

  it("spreads retries by at most 10 % either way, and the cap holds with the jitter", () => {
    expect(retryDelaySeconds(1, () => 0)).toBeCloseTo(1.8);
    expect(retryDelaySeconds(1, () => 1)).toBeCloseTo(2.2);
    expect(retryDelaySeconds(20, () => 1)).toBe(300);
  });
});

describe("the retry window", () => {
  /** Every attempt of a lookup that is never answered, as the reader would make them. */
  function unanswered(
    windowSeconds: number,
    causes: (attempt: number) => UnavailableCause = () => "busy",
  ): { starts: number[]; final: IssuerState } {
    let state: IssuerState | undefined;
    let now = 0;
    const starts: number[] = [];
    for (let attempt = 1; attempt < 100; attempt += 1) {
      state = claimed(state, attempt, at(now), windowSeconds);
      starts.push(now);
      state = afterUnavailable(state, causes(attempt), at(now), middle);
      if (state.answer) return { starts, final: state };
      now = (Date.parse(state.next_at ?? "") - T0.getTime()) / 1000;
    }
    throw new Error("The lookup never gave up");
  }

  it("retries for the whole window after the first attempt, the last attempt at its end, then gives up", () => {
    const { starts, final } = unanswered(DEFAULT_RETRY_WINDOW_SECONDS);
    expect(starts).toEqual([0, 2, 6, 14, 30, 62, 126, 254, 510, 810, 900]);
    expect(final).toMatchObject({ answer: "unavailable", last_cause: "busy", attempts: 11 });
    expect(final.retry_until).toBe(at(900).toISOString().replace(".000Z", "Z"));
  });

  it("asks about an unrecognised answer once more after a pause, then gives up at once: two lookups", () => {
    const { starts, final } = unanswered(DEFAULT_RETRY_WINDOW_SECONDS, () => "unrecognised");
    expect(starts).toEqual([0, UNRECOGNISED_PAUSE_SECONDS]);
    expect(final).toMatchObject({ answer: "unavailable", last_cause: "unrecognised", attempts: 2, unrecognised: 2 });
  });

  it("counts unrecognised answers across other causes: the second gives up whatever came between", () => {
    const causes: UnavailableCause[] = ["unrecognised", "busy", "timeout", "unrecognised", "busy"];
    const { starts, final } = unanswered(DEFAULT_RETRY_WINDOW_SECONDS, (attempt) => causes[attempt - 1] ?? "busy");
    expect(starts).toEqual([
      0,
      UNRECOGNISED_PAUSE_SECONDS,
      UNRECOGNISED_PAUSE_SECONDS + 4,
      UNRECOGNISED_PAUSE_SECONDS + 12,
    ]);
    expect(final).toMatchObject({ answer: "unavailable", last_cause: "unrecognised", attempts: 4 });
  });

  it("pauses no later than the window's end after an unrecognised answer", () => {
    const { starts, final } = unanswered(10, () => "unrecognised");
    expect(starts).toEqual([0, 10]);
    expect(final).toMatchObject({ answer: "unavailable", attempts: 2 });
  });

  it("a window of none gives up at the first unavailable answer", () => {
    expect(unanswered(0)).toMatchObject({ starts: [0], final: { answer: "unavailable", attempts: 1 } });
  });

  it("keeps the window of the first attempt, whatever a later one is given", () => {
    const first = claimed(undefined, 1, T0, 900);
    const second = claimed(afterUnavailable(first, "timeout", at(15), middle), 2, at(17), 5);
    expect(second).toMatchObject({
      first_at: first.first_at,
      retry_until: at(900).toISOString().replace(".000Z", "Z"),
      attempts: 2,
    });
  });

  it("holds each attempt for the lease, and lets go of it with the answer", () => {
    const held = claimed(undefined, 1, T0, 900);
    expect(held.asking_until).toBe(at(LOOKUP_LEASE_SECONDS).toISOString().replace(".000Z", "Z"));
    const found = answered(held, "found");
    expect(found).toMatchObject({ answer: "found", rev: held.rev + 1 });
    expect(found).not.toHaveProperty("asking_until");
  });
});

describe("what a processor does", () => {
  const asking = claimed(undefined, 1, T0, 900);
  const retrying = afterUnavailable(asking, "http_error", at(3), middle);

  it("one that may not ask sends the first attempt once, and otherwise waits or decides", () => {
    expect(processorStep(undefined)).toEqual({ do: "later", attempt: 1, delaySeconds: 0 });
    expect(processorStep(asking)).toEqual({ do: "nothing" });
    expect(processorStep(retrying)).toEqual({ do: "nothing" });
    expect(processorStep(answered(asking, "not_found"))).toEqual({ do: "decide" });
  });

  it.each([
    ["the first attempt", undefined, 1, 0, { do: "ask", attempt: 1 }],
    ["a duplicate of an attempt being asked", asking, 1, 10, { do: "nothing" }],
    ["an attempt whose asker stopped half way", asking, 1, LOOKUP_LEASE_SECONDS, { do: "ask", attempt: 1 }],
    [
      "the message of an attempt whose retry may not have been sent",
      retrying,
      1,
      3,
      { do: "later", attempt: 2, delaySeconds: 2 },
    ],
    ["the retry, when due", retrying, 2, 5, { do: "ask", attempt: 2 }],
    ["the retry, a moment early", retrying, 2, 4.5, { do: "ask", attempt: 2 }],
    ["the retry, arrived early", retrying, 2, 3, { do: "later", attempt: 2, delaySeconds: 2 }],
    ["a stale message", retrying, 0, 5, { do: "nothing" }],
    ["a message from the future", retrying, 4, 5, { do: "nothing" }],
    ["an answered lookup", answered(asking, "found"), 1, 5, { do: "decide" }],
  ] as const)("one that asks, given %s", (_case, state, attempt, seconds, step) => {
    expect(askerStep(state, attempt, at(seconds))).toEqual(step);
  });
});

describe("issuer messages", () => {
  it("reads a message and refuses what is not one", () => {
    expect(issuerMessageOf('{"verification_id":"ver_1","attempt":2}')).toEqual({
      verification_id: "ver_1",
      attempt: 2,
    });
    for (const body of [
      "",
      "null",
      "[]",
      '{"verification_id":"ver_1"}',
      '{"verification_id":1,"attempt":1}',
      '{"verification_id":"v","attempt":0}',
      "{",
    ]) {
      expect(issuerMessageOf(body), body).toBeUndefined();
    }
  });
});
