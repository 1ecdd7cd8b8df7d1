/** Find a verification of one app by its reference, status or creation day, and read it. */
import { h, timeOf, words } from "../common/dom.ts";
import { appPicker, field, type PortalContext, reasonOf, table } from "./context.ts";
import { type Search, STATUSES, type Verification } from "./wire.ts";

/** `YYYY-MM-DD` from a date input as the start of that UTC day, or undefined. */
function dayStart(value: string, plusDays = 0): string | undefined {
  if (!value) return undefined;
  const at = new Date(`${value}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + plusDays);
  return at.toISOString();
}

function detail(verification: Verification): HTMLElement {
  return h(
    "section",
    { class: "panel", id: "verification-detail", tabindex: "-1", "aria-labelledby": "detail-title" },
    h("h2", { id: "detail-title" }, verification.original_filename ?? verification.verification_id),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Verification"),
      h("dd", {}, h("code", {}, verification.verification_id)),
      h("dt", {}, "Reference"),
      h("dd", {}, verification.external_reference_id ?? "—"),
      h("dt", {}, "Status"),
      h("dd", {}, words(verification.status), verification.result ? ` · ${verification.result}` : ""),
      h("dt", {}, "Why"),
      h("dd", {}, verification.message),
      h("dt", {}, "Created"),
      h("dd", {}, timeOf(verification.created_at)),
    ),
    verification.checks.length === 0
      ? null
      : table(
          "Checks",
          ["Check", "Outcome", "Detail"],
          verification.checks.map((check) => [
            words(check.name),
            h("span", { class: `badge ${check.outcome}` }, check.outcome),
            check.detail,
          ]),
        ),
  );
}

export async function showVerifications(context: PortalContext): Promise<void> {
  const reference = h("input", { id: "search-reference", name: "external_reference_id", autocomplete: "off" });
  const status = h(
    "select",
    { id: "search-status", name: "status" },
    h("option", { value: "" }, "Any"),
    ...STATUSES.map((value) => h("option", { value }, words(value))),
  );
  const from = h("input", { id: "search-from", name: "from", type: "date" });
  const to = h("input", { id: "search-to", name: "to", type: "date" });
  const results = h("div", { "aria-live": "polite" });
  const more = h("button", { type: "button", hidden: true }, "Load more");
  const shown = h("div");
  let rows: Verification[] = [];
  let cursor: string | null = null;
  let search: Search | undefined;

  const open = (id: string) => {
    context.api
      .verification(id)
      .then((verification) => {
        shown.replaceChildren(detail(verification));
        shown.querySelector<HTMLElement>("#verification-detail")?.focus();
      })
      .catch((error: unknown) => context.say.error(reasonOf(error, "The verification could not be loaded.")));
  };
  const draw = () => {
    results.replaceChildren(
      rows.length === 0
        ? h("p", { class: "empty" }, "No verification matches.")
        : table(
            "Verifications found",
            ["Verification", "Reference", "Status", "Result", "Created"],
            rows.map((verification) => {
              const link = h("button", { type: "button", class: "link" }, verification.verification_id);
              link.addEventListener("click", () => open(verification.verification_id));
              return [
                link,
                verification.external_reference_id ?? "—",
                words(verification.status),
                verification.result ?? "—",
                timeOf(verification.created_at),
              ];
            }),
          ),
    );
    more.hidden = cursor === null;
  };
  const run = async (next: boolean) => {
    if (!search) return;
    const page = await context.api.search(search, next ? cursor : null);
    rows = next ? [...rows, ...page.data] : page.data;
    cursor = page.next_cursor;
    draw();
  };
  const form = h(
    "form",
    { class: "panel search", role: "search", "aria-label": "Find verifications" },
    field("Reference", reference, "Your external_reference_id, exactly"),
    field("Status", status),
    field("Created from", from),
    field("Created to", to),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary" }, "Search")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!context.selected) return;
    context.say.clear();
    shown.replaceChildren();
    search = {
      app_id: context.selected,
      ...(reference.value.trim() ? { external_reference_id: reference.value.trim() } : {}),
      ...(status.value ? { status: status.value as Search["status"] } : {}),
      ...(from.value ? { created_after: dayStart(from.value) } : {}),
      ...(to.value ? { created_before: dayStart(to.value, 1) } : {}),
    };
    run(false).catch((error: unknown) => context.say.error(reasonOf(error, "The search failed.")));
  });
  more.addEventListener("click", () => {
    run(true).catch((error: unknown) => context.say.error(reasonOf(error, "More results could not be loaded.")));
  });
  const picker = await appPicker(context, () => {
    rows = [];
    cursor = null;
    results.replaceChildren();
    shown.replaceChildren();
  });
  context.view.replaceChildren(
    h(
      "section",
      { "aria-labelledby": "verifications-title" },
      h("h1", { id: "verifications-title", tabindex: "-1" }, "Verifications"),
      picker,
      form,
      results,
      more,
      shown,
    ),
  );
}
