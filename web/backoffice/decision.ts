/** The decision form: verified or rejected, why, and a note for staff; open only while the reviewer holds the claim. */
import { h } from "../common/dom.ts";
import { REJECTION_CODES } from "./order.ts";
import { t, text } from "./text.ts";
import { type DecisionBody, MAX_NOTE_LENGTH, type RejectionCode } from "./wire.ts";

export interface DecisionForm {
  element: HTMLFormElement;
  /** Checks a result and moves focus to it, as the v and r keys do. */
  pick(result: DecisionBody["result"]): void;
  busy(busy: boolean): void;
  /** Opens the form (the reviewer holds the claim) or closes it, keeping what was chosen. */
  enable(enabled: boolean): void;
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
    h("option", { value: "" }, t("decision.reason_choose")),
    ...REJECTION_CODES.map((code) => h("option", { value: code }, text.label("reason", code))),
  );
  const note = h("textarea", {
    id: "note",
    name: "note",
    rows: 3,
    maxlength: MAX_NOTE_LENGTH,
    "aria-describedby": "note-count",
  });
  const counted = () => t("decision.note_count", { count: note.value.length, max: MAX_NOTE_LENGTH });
  const count = h("p", { id: "note-count", class: "muted" }, counted());
  const button = h("button", { type: "submit", class: "primary" }, t("decision.submit"));
  const form = h(
    "form",
    { class: "decision", "aria-labelledby": "decision-title" },
    h("h2", { id: "decision-title" }, t("decision.title")),
    h(
      "fieldset",
      {},
      h("legend", {}, t("decision.result")),
      radio("verified", t("decision.verified"), "v"),
      radio("rejected", t("decision.rejected"), "r"),
    ),
    h(
      "div",
      { class: "field" },
      h("label", { for: "reason-code" }, t("decision.reason")),
      reason,
      h("p", { id: "reason-hint", class: "muted" }, t("decision.reason_hint")),
    ),
    h("div", { class: "field" }, h("label", { for: "note" }, t("decision.note")), note, count),
    h("div", { class: "actions" }, button),
  );
  // Closed until the claim is held: every control at once.
  let open = false;

  const result = () => (new FormData(form).get("result") ?? undefined) as DecisionBody["result"] | undefined;
  // A reason names why a document is rejected: the API refuses one with a verification.
  const follow = () => {
    const rejecting = result() === "rejected";
    reason.disabled = !open || !rejecting;
    reason.required = rejecting;
  };
  form.addEventListener("change", follow);
  note.addEventListener("input", () => {
    count.textContent = counted();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = result();
    if (!chosen || !open) return;
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
      if (!input || !open) return;
      input.checked = true;
      follow();
      input.focus();
    },
    busy(busy) {
      button.disabled = busy || !open;
      form.setAttribute("aria-busy", String(busy));
    },
    enable(enabled) {
      open = enabled;
      for (const control of form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea")) {
        control.disabled = !enabled;
      }
      button.disabled = !enabled;
      follow();
    },
  };
}
