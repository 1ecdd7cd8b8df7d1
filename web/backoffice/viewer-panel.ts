/**
 * The viewer's side panel, beside the upload: the barcode and the masked T.C. identity number
 * the checks read (so a reviewer sees them without scrolling), and the lines in which the upload's
 * text and the issuer's copy differ.
 */
import { h } from "../common/dom.ts";
import { t } from "./text.ts";
import type { LineDifference } from "./text-diff.ts";
import type { TextKey } from "./text-en.ts";
import type { StaffVerification } from "./wire.ts";

/** The keys as recorded: each read one, or why there is none. */
export function keysSection(verification: StaffVerification): HTMLElement {
  const keys = verification.document_keys;
  const section = h(
    "section",
    { class: "document-keys", "aria-labelledby": "document-keys-title" },
    h("h2", { id: "document-keys-title" }, t("viewer.keys")),
  );
  if (!keys) {
    section.append(
      h("p", { class: "muted" }, t(verification.redacted_at ? "viewer.keys_erased" : "viewer.keys_not_recorded")),
    );
    return section;
  }
  const value = (read: string | null, note?: TextKey) =>
    read === null
      ? h("dd", { class: "muted" }, t("viewer.key_not_read"))
      : h("dd", {}, h("code", {}, read), note ? h("span", { class: "muted" }, ` ${t(note)}`) : null);
  section.append(
    h(
      "dl",
      {},
      h("dt", {}, t("viewer.barcode")),
      value(keys.barcode),
      h("dt", {}, t("viewer.identity_number")),
      value(keys.identity_number_masked, "viewer.masked"),
    ),
    h("p", { class: "muted" }, t("viewer.keys_source")),
  );
  return section;
}

/** Where the comparison of the two texts stands; compared, how to bring a differing line into view in each copy. */
export type Comparison =
  | { state: "comparing" | "photo" | "not_two_pdfs" | "failed" }
  | {
      state: "compared";
      upload: LineDifference[];
      issuer: LineDifference[];
      reveal: Record<"upload" | "issuer", (difference: LineDifference) => void>;
    };

const SAID: Record<Exclude<Comparison["state"], "compared">, TextKey> = {
  comparing: "viewer.lines_comparing",
  photo: "viewer.lines_photo",
  not_two_pdfs: "viewer.lines_not_two_pdfs",
  failed: "viewer.lines_failed",
};

/** A line's text as listed: any identity number in it hidden whole (the page shows none in clear). */
const listed = (text: string) => text.replace(/(?<!\d)\d{11}(?!\d)/g, (digits) => "*".repeat(digits.length));

/** Each differing line as a button that brings it into view in its copy's pane. */
function differingList(
  title: TextKey,
  differences: LineDifference[],
  reveal: (difference: LineDifference) => void,
): HTMLElement[] {
  if (differences.length === 0) return [];
  const item = (difference: LineDifference) => {
    const { line } = difference;
    const button = h(
      "button",
      { type: "button", class: "link" },
      t("viewer.line", { page: line.page, text: listed(line.text) }),
    );
    button.addEventListener("click", () => reveal(difference));
    return h("li", {}, button);
  };
  return [h("h3", {}, t(title)), h("ul", { class: "differing-lines" }, ...differences.map(item))];
}

/** The section that lists the lines that differ, filled in by `showComparison`. */
export function linesSection(): HTMLElement {
  return h(
    "section",
    { class: "lines", "aria-labelledby": "lines-title", "aria-live": "polite" },
    h("h2", { id: "lines-title" }, t("viewer.lines")),
  );
}

export function showComparison(section: HTMLElement, comparison: Comparison): void {
  const title = section.firstElementChild;
  const content =
    comparison.state !== "compared"
      ? [h("p", { class: "muted" }, t(SAID[comparison.state]))]
      : comparison.upload.length + comparison.issuer.length === 0
        ? [h("p", {}, t("viewer.lines_same"))]
        : [
            h("p", {}, t("viewer.lines_marked")),
            ...differingList("viewer.lines_upload", comparison.upload, comparison.reveal.upload),
            ...differingList("viewer.lines_issuer", comparison.issuer, comparison.reveal.issuer),
          ];
  section.replaceChildren(...(title ? [title] : []), ...content);
  // Lines that differ are what a reviewer reads first: above the keys in the side column.
  if (comparison.state === "compared" && comparison.upload.length + comparison.issuer.length > 0) {
    section.parentElement?.prepend(section);
  }
}
