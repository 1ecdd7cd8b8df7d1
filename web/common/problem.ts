/**
 * What an API of the service refused, read from its problem+json body. No DOM here: the pages'
 * tests type-check this file against each API's generated Problem.
 */

/** What the API refused, by its problem+json: `code` to branch on, `detail` to show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    /** The fields a `validation_failed` named. */
    readonly fields: { field: string; message: string }[] = [],
  ) {
    super(detail);
    this.name = "ApiError";
  }
}

/** What a page reads of a problem+json body: the pages' tests check that each API's Problem has it. */
export interface ProblemBody {
  code: string;
  detail: string;
  request_id?: string;
  errors?: { field: string; message: string }[];
}

/** The refusal a response that is not ok carries; `apiName` names the API when its body is no problem. */
export async function problemOf(response: Response, apiName: string): Promise<ApiError> {
  const problem = (await response.json().catch(() => undefined)) as Partial<ProblemBody> | undefined;
  if (problem && typeof problem.code === "string" && typeof problem.detail === "string") {
    const fields = problem.errors ?? [];
    const reference = problem.request_id ? ` (request ${problem.request_id})` : "";
    const listed = fields.map((error) => `${error.field}: ${error.message}`);
    const detail = listed.length > 1 ? `${problem.detail}: ${listed.join("; ")}` : problem.detail;
    return new ApiError(response.status, problem.code, `${detail}${reference}`, fields);
  }
  return new ApiError(response.status, "unexpected", `The ${apiName} answered ${response.status}. Try again.`);
}
