/** `ops erase`: every verification of an app, or of one of its references, erased now. */
import { eraseMatching } from "#shared/use-cases/public/erase-verification";
import { appId } from "../arguments.ts";
import { type Given, option, requiredOption, type TargetCommand } from "../definitions.ts";

export const ERASE: TargetCommand = {
  name: "erase",
  description:
    "erase the person from every verification of an app, or of one of its references, as DELETE does: documents, fields, reference and metadata go; ids, status, result and times stay",
  options: [
    requiredOption("--app <app-id>", "the app", appId),
    option("--reference <external-reference-id>", "only the verifications created with this reference"),
  ],
  reaches: "target",
  run: async (target, { options }: Given<[], { app: string; reference?: string }>) => {
    const tally = await eraseMatching(
      { ...(await target.erasure()), clock: target.clock },
      { appId: options.app, ...(options.reference === undefined ? {} : { reference: options.reference }) },
      await target.operator(),
    );
    const scope = options.reference === undefined ? options.app : `${options.app}, reference ${options.reference}`;
    const waiting =
      tally.in_progress.length === 0
        ? ""
        : `\n${tally.in_progress.length} still processing or in review, erase again once they end: ${tally.in_progress.join(", ")}`;
    return {
      json: { app_id: options.app, reference: options.reference ?? null, ...tally },
      text: `Erased ${tally.erased} verification(s) of ${scope}; ${tally.already_erased} were erased already.${waiting}`,
    };
  },
};
