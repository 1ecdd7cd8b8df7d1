/** A kept request's refusal as the pages show it: its code and its invalid fields by their labels. */
import { h } from "../common/dom.ts";
import { text } from "./text.ts";
import type { KeptRequest } from "./wire.ts";

/** A refusal's invalid fields, each by its path and its code's label; none without any. */
export function fieldErrorsOf(request: KeptRequest): HTMLElement | null {
  if (request.errors.length === 0) return null;
  return h(
    "ul",
    { class: "field-errors" },
    ...request.errors.map((error) =>
      h("li", {}, h("code", {}, error.field), ` · ${text.label("field_code", error.code)}`),
    ),
  );
}

/** Why a request was refused: its problem's label, then its invalid fields. */
export function refusalOf(request: KeptRequest): HTMLElement | string {
  if (!request.code) return "—";
  return h("span", {}, text.label("api_problem", request.code), fieldErrorsOf(request));
}
