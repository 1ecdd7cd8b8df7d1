/**
 * The e-Devlet canary (edevlet.md): every 15 minutes, one lookup of a barcode e-Devlet cannot
 * know, which must read its documented negative. Anything else (a changed page, a refusal, no
 * answer) raises `EdevletCanaryFailed`, whose alarm tells the operators before customers notice.
 * The lookup is counted with the others (`IssuerLookups`), as one more lookup e-Devlet meets.
 */
import { CANARY_LOOKUP } from "../../domain/edevlet.ts";
import type { Environment } from "../../domain/environments.ts";
import type { Authority, IssuerAnswer } from "../../ports/authority.ts";
import type { Log } from "../../ports/log.ts";

/** What the canary's lookup is logged under, in place of a verification. */
export const CANARY_NAME = "edevlet-canary";

const outcomeOf = (answer: IssuerAnswer) =>
  answer.kind === "unavailable" ? (`unavailable_${answer.cause}` as const) : answer.kind;

/** One canary lookup: `passed` when it read the documented negative, `failed` (and counted) otherwise. */
export async function runCanary(deps: {
  authority: Authority;
  log: Pick<Log, "count" | "lookup">;
  environment: Environment;
  now?: () => number;
}): Promise<"passed" | "failed"> {
  const now = deps.now ?? Date.now;
  const started = now();
  const answer = await deps.authority.lookup({ documentType: "YOK_STUDENT", ...CANARY_LOOKUP });
  const outcome = outcomeOf(answer);
  deps.log.lookup(deps.environment, outcome, now() - started, CANARY_NAME);
  if (answer.kind === "not_found") return "passed";
  deps.log.count(
    "EdevletCanaryFailed",
    deps.environment,
    "the e-Devlet canary did not read the documented negative: e-Devlet may have changed",
    { outcome },
  );
  return "failed";
}
