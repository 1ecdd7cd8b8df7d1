/**
 * Asking e-Devlet again, for an item in review because it gave no answer: when it was last
 * asked and by whom, whether its answer is awaited, and the button, shown to the claim's holder
 * once the API allows it (once every ten minutes an item); the sentence says why it is not.
 */
import { h, timeOf } from "../common/dom.ts";
import { t, text } from "./text.ts";
import type { StaffVerification } from "./wire.ts";

export interface AskAgainPanel {
  element: HTMLElement;
  /** Shows the item's state as just read; `mine` while the reviewer holds its claim. */
  show(verification: StaffVerification, mine: boolean): void;
  busy(busy: boolean): void;
}

/** The sentence for an item that may be asked again (`recheck`; `allowed` now), at the page's clock. */
function stateText(
  recheck: NonNullable<StaffVerification["issuer_recheck"]>,
  mine: boolean,
  allowed: boolean,
): (string | Node)[] {
  const { asked_at: askedAt, asked_by: askedBy } = recheck;
  if (askedAt === null || askedBy === null) {
    return [t("recheck.never"), " ", mine ? "" : t("recheck.claim_first")];
  }
  const asked = { time: timeOf(askedAt), name: askedBy };
  if (recheck.under_way) return text.nodes("recheck.under_way", asked);
  return [
    ...text.nodes("recheck.no_answer", asked),
    " ",
    ...(allowed
      ? [mine ? "" : t("recheck.claim_first")]
      : text.nodes("recheck.allowed_from", { time: timeOf(recheck.allowed_from) })),
  ];
}

export function askAgainPanel(ask: () => void): AskAgainPanel {
  const status = h("p", { id: "recheck-status" });
  const button = h("button", { type: "button", "aria-describedby": "recheck-status" }, t("recheck.ask"));
  button.addEventListener("click", ask);
  const element = h(
    "section",
    { class: "recheck", "aria-labelledby": "recheck-title" },
    h("h2", { id: "recheck-title" }, t("recheck.title")),
    status,
    button,
  );
  let ready = false;
  let working = false;
  const follow = () => {
    button.hidden = !ready;
    button.disabled = working;
  };
  return {
    element,
    show(verification, mine) {
      const recheck = verification.issuer_recheck;
      element.hidden = recheck === null || verification.status !== "in_review";
      if (!recheck) return;
      const allowed = Date.parse(recheck.allowed_from) <= Date.now();
      status.replaceChildren(...stateText(recheck, mine, allowed));
      ready = mine && !recheck.under_way && allowed;
      follow();
    },
    busy(busy) {
      working = busy;
      element.setAttribute("aria-busy", String(busy));
      follow();
    },
  };
}
