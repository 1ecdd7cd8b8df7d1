/** The decision form: verified or rejected, why, and a note for staff. */
import { h, words } from "../common/dom.ts";
import { type DecisionBody, MAX_NOTE_LENGTH, REJECTION_CODES, type RejectionCode } from "./wire.ts";

export interface DecisionForm {
  element: HTMLFormElement;
  /** Checks a result and moves focus to it, as the v and r keys do. */
  pick(result: DecisionBody["result"]): void;
  busy(busy: boolean): void;
}

function radio(value: DecisionBody["result"], label: string, key: string): HTMLElement {
  const id = `result-${value}`;
  return h(
    "div",
    { class: "choice" },
    h("input", { type: "radio", name: "result", id, value, required: true }),
    h("label", { for: id }, label, " ", h("kbd", { "aria-hidden": "true" }, key)),
  );
}

/** `submit` gets the decision once the form's own checks pass. */
export function decisionForm(submit: (decision: DecisionBody) => void): DecisionForm {
  const reason = h(
    "select",
    { id: "reason-code", name: "reason_code", disabled: true, "aria-describedby": "reason-hint" },
    h("option", { value: "" }, "Choose a reason"),
    ...REJECTION_CODES.map((code) => h("option", { value: code }, words(code))),
  );
  const note = h("textarea", {
    id: "note",
    name: "note",
    rows: 3,
    maxlength: MAX_NOTE_LENGTH,
    "aria-describedby": "note-count",
  });
  const count = h("p", { id: "note-count", class: "muted" }, `0 of ${MAX_NOTE_LENGTH} characters. For staff only.`);
  const button = h("button", { type: "submit", class: "primary" }, "Record decision");
  const form = h(
    "form",
    { class: "decision", "aria-labelledby": "decision-title" },
    h("h2", { id: "decision-title" }, "Decision"),
    h(
      "fieldset",
      {},
      h("legend", {}, "Result"),
      radio("verified", "Verified", "v"),
      radio("rejected", "Rejected", "r"),
    ),
    h(
      "div",
      { class: "field" },
      h("label", { for: "reason-code" }, "Rejection reason"),
      reason,
      h("p", { id: "reason-hint", class: "muted" }, "Required when rejecting."),
    ),
    h("div", { class: "field" }, h("label", { for: "note" }, "Note (optional)"), note, count),
    h("div", { class: "actions" }, button),
  );

  const result = () => (new FormData(form).get("result") ?? undefined) as DecisionBody["result"] | undefined;
  // A reason names why a document is rejected: the API refuses one with a verification.
  const follow = () => {
    const rejecting = result() === "rejected";
    reason.disabled = !rejecting;
    reason.required = rejecting;
  };
  form.addEventListener("change", follow);
  note.addEventListener("input", () => {
    count.textContent = `${note.value.length} of ${MAX_NOTE_LENGTH} characters. For staff only.`;
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = result();
    if (!chosen) return;
    const text = note.value.trim();
    submit({
      result: chosen,
      ...(chosen === "rejected" ? { reason_code: reason.value as RejectionCode } : {}),
      ...(text ? { note: text } : {}),
    });
  });

  return {
    element: form,
    pick(value) {
      const input = form.querySelector<HTMLInputElement>(`#result-${value}`);
      if (!input) return;
      input.checked = true;
      follow();
      input.focus();
    },
    busy(busy) {
      button.disabled = busy;
      form.setAttribute("aria-busy", String(busy));
    },
  };
}
