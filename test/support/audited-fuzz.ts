/**
 * Fuzzing a bearer-token API whose actions are audited (the backoffice, the portal): batches
 * of requests sent at once, and for each batch no 5xx, every error as problem+json with a
 * contract code, and exactly one audit record per audited success.
 */
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import fc from "fast-check";
import { expect } from "vitest";
import type { TestApi } from "./api.ts";
import { expectProblem, type Reply } from "./client.ts";

async function auditCount(api: TestApi): Promise<number> {
  const { Count = 0 } = await api.db.send(
    new ScanCommand({ TableName: api.tables.audit, Select: "COUNT", ConsistentRead: true }),
  );
  return Count;
}

/** Runs the property; answers how many replies of each status and code came back. */
export async function fuzzAudited<Case>(options: {
  api: TestApi;
  seed: number;
  runs: number;
  batch: number;
  cases: fc.Arbitrary<Case>;
  send: (testCase: Case) => Promise<Reply>;
  /** Whether a success of this case is an action that leaves one audit record. */
  audited: (testCase: Case) => boolean;
  /** Further checks of a success. */
  succeeded?: (testCase: Case, reply: Reply) => void;
}): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  let requests = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(options.cases, { minLength: options.batch, maxLength: options.batch }), async (batch) => {
      const before = await auditCount(options.api);
      const replies = await Promise.all(batch.map(options.send));
      let audited = 0;
      replies.forEach((reply, i) => {
        const testCase = batch[i] as Case;
        const code = (reply.json as { code?: string } | undefined)?.code ?? "";
        const key = `${reply.status} ${code}`.trim();
        statuses[key] = (statuses[key] ?? 0) + 1;
        expect(reply.status, `${JSON.stringify(testCase)} -> ${reply.text}`).toBeLessThan(500);
        if (reply.status >= 400) {
          expectProblem(reply, reply.status, code);
          return;
        }
        options.succeeded?.(testCase, reply);
        if (options.audited(testCase)) audited += 1;
      });
      requests += batch.length;
      expect(await auditCount(options.api)).toBe(before + audited);
    }),
    { seed: options.seed, numRuns: options.runs, endOnFailure: true },
  );
  expect(requests).toBe(options.runs * options.batch);
  return statuses;
}
