/**
 * The decision form: verified or rejected, why, and a note for staff; open only while the
 * reviewer holds the claim. By keyboard: the first nine reasons by their digit, Enter in the note
 * decides (Shift+Enter breaks the line), Esc leaves the form. The form checks itself: a rejection
 * without a reason is said beside it, not by the browser's bubble.
 */
import { h } from "../common/dom.ts";
import { REJECTION_CODES } from "./order.ts";
import { settings } from "./settings.ts";
import { t, text } from "./text.ts";
import { type DecisionBody, MAX_NOTE_LENGTH, type RejectionCode } from "./wire.ts";

/** The reasons a digit picks: 1 the first shown, up to 9. */
export const REASON_KEYS = REJECTION_CODES.slice(0, 9);

export interface DecisionForm {
  element: HTMLFormElement;
  /** Checks a result and moves focus to it, as the v and r keys do. */
  pick(result: DecisionBody["result"]): void;
  /** Checks rejected with `code` as its reason, as the digit keys do. */
  reject(code: RejectionCode): void;
  /** Decides with what is chosen, when the form is open and a result is; as Enter does. */
  submit(): boolean;
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

/** A reason as the list offers it: its digit first, for the first nine. */
function reasonOption(code: RejectionCode): HTMLOptionElement {
  const digit = REASON_KEYS.indexOf(code) + 1;
  const label = text.label("reason", code);
  return h("option", { value: code }, digit > 0 ? `${digit} · ${label}` : label);
}

/** The form and its controls: the result, the reason, the note and its count, the button, and where a decision leads. */
function formParts() {
  const reason = h(
    "select",
    { id: "reason-code", name: "reason_code", disabled: true, "aria-describedby": "reason-hint" },
    h("option", { value: "" }, t("decision.reason_choose")),
    ...REJECTION_CODES.map(reasonOption),
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
  // Where a decision leads: the next item (the default) or the queue; the browser keeps the choice.
  const thenQueue = h("input", { type: "checkbox", id: "then-queue", checked: settings.thenQueue() });
  thenQueue.addEventListener("change", () => settings.setThenQueue(thenQueue.checked));
  const form = h(
    "form",
    { class: "decision", "aria-labelledby": "decision-title", novalidate: true },
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
    h("div", { class: "choice setting" }, thenQueue, h("label", { for: "then-queue" }, t("decision.then_queue"))),
  );
  note.addEventListener("input", () => {
    count.textContent = counted();
  });
  return { form, reason, note, button };
}

/** Enter in the note decides; Shift+Enter is a new line (and an input method's Enter is its own). Esc anywhere in the form leaves it. */
function listenForKeys(form: HTMLFormElement, note: HTMLTextAreaElement, decide: () => boolean, leave: () => void) {
  note.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    decide();
  });
  // The screen's own Esc (back to the queue) is the next one.
  form.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    leave();
  });
}

/**
 * `submit` gets the decision once the form's own checks pass; `invalid` hears what they found
 * missing; `leave` is Esc inside the form, which hands the keys back to the screen.
 */
export function decisionForm(
  submit: (decision: DecisionBody) => void,
  invalid: (message: string) => void,
  leave: () => void,
): DecisionForm {
  const { form, reason, note, button } = formParts();
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
  /** Decides when the form is open and complete; says what is missing otherwise. */
  const decide = (): boolean => {
    const chosen = result();
    if (!open || button.disabled) return false;
    if (!chosen) {
      invalid(t("decision.result_missing"));
      form.querySelector<HTMLInputElement>("input[name=result]")?.focus();
      return true;
    }
    const code = REJECTION_CODES.find((candidate) => candidate === reason.value);
    if (chosen === "rejected" && !code) {
      invalid(t("decision.reason_missing"));
      reason.focus();
      return true;
    }
    const written = note.value.trim();
    submit({
      result: chosen,
      ...(chosen === "rejected" ? { reason_code: code } : {}),
      ...(written ? { note: written } : {}),
    });
    return true;
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    decide();
  });
  listenForKeys(form, note, decide, leave);

  const check = (value: DecisionBody["result"]): HTMLInputElement | undefined => {
    const input = form.querySelector<HTMLInputElement>(`#result-${value}`);
    if (!input || !open) return undefined;
    input.checked = true;
    follow();
    return input;
  };

  return {
    element: form,
    pick(value) {
      check(value)?.focus();
    },
    reject(code) {
      const input = check("rejected");
      if (!input) return;
      reason.value = code;
      input.focus();
    },
    submit: decide,
    busy(busy) {
      button.disabled = busy || !open;
      form.setAttribute("aria-busy", String(busy));
    },
    enable(enabled) {
      open = enabled;
      for (const control of form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
        "input[name=result], textarea",
      )) {
        control.disabled = !enabled;
      }
      button.disabled = !enabled;
      follow();
    },
  };
}
