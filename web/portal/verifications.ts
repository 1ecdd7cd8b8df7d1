/**
 * The organisation's recent verifications at once; a lookup across its apps by verification id
 * or reference; a search of one app by its reference, status or creation day; and reading one.
 */
import { h, timeOf, words } from "../common/dom.ts";
import { appPicker, field, type PortalContext, reasonOf, table } from "./context.ts";
import { portalLanguage, say } from "./language.ts";
import { type LookupMatch, type Search, STATUSES, type Verification } from "./wire.ts";

const LOOKUP_TEXTS = {
  title: { en: "Find across your apps", tr: "Tüm uygulamalarda bul" },
  recent: { en: "Recent verifications", tr: "Son doğrulamalar" },
  found: { en: "Found", tr: "Bulunanlar" },
  query: { en: "Find", tr: "Aranacak" },
  hint: {
    en: "A verification id (ver_…), or your external_reference_id exactly. For a request_id, write to support.",
    tr: "Doğrulama kimliği (ver_…) ya da external_reference_id değeriniz (birebir). request_id için destek ekibine yazın.",
  },
  lookUp: { en: "Look up", tr: "Bul" },
  open: { en: "Open", tr: "Aç" },
  showRecent: { en: "Show recent", tr: "Son doğrulamaları göster" },
  app: { en: "App", tr: "Uygulama" },
  verification: { en: "Verification", tr: "Doğrulama" },
  reference: { en: "Reference", tr: "Referans" },
  status: { en: "Status", tr: "Durum" },
  created: { en: "Created", tr: "Oluşturulma" },
  matched: { en: "Found by", tr: "Bulunma şekli" },
  none: { en: "No verification found.", tr: "Doğrulama bulunamadı." },
  failed: { en: "The lookup failed.", tr: "Arama yapılamadı." },
} as const;

const MATCHED_BY: Record<LookupMatch["matched_by"], { en: string; tr: string }> = {
  verification_id: { en: "Verification id", tr: "Doğrulama kimliği" },
  external_reference_id: { en: "Reference", tr: "Referans" },
  recent: { en: "Recent", tr: "Yeni" },
};

/** The lookup across the organisation's apps, showing the most recent verifications until asked. */
function lookupSection(context: PortalContext, open: (id: string) => void): HTMLElement {
  const q = h("input", { id: "lookup-q", name: "q", maxlength: "128", autocomplete: "off", required: true });
  const heading = h("h3", { id: "lookup-results-title" }, say(LOOKUP_TEXTS.recent));
  const results = h("div", { "aria-live": "polite" });
  const draw = (matches: LookupMatch[]) => {
    results.replaceChildren(
      matches.length === 0
        ? h("p", { class: "empty" }, say(LOOKUP_TEXTS.none))
        : table(
            heading.textContent ?? "",
            [
              say(LOOKUP_TEXTS.app),
              say(LOOKUP_TEXTS.verification),
              say(LOOKUP_TEXTS.reference),
              say(LOOKUP_TEXTS.status),
              say(LOOKUP_TEXTS.created),
              say(LOOKUP_TEXTS.matched),
            ],
            matches.map((match, index) => {
              const { verification_id: id } = match.verification;
              // Named "Open", described by the id beside it: the search below names its buttons by the id.
              const idCell = h("code", { id: `lookup-id-${index}` }, id);
              const opener = h("button", { type: "button", "aria-describedby": idCell.id }, say(LOOKUP_TEXTS.open));
              opener.addEventListener("click", () => open(id));
              return [
                match.app_name,
                h("span", {}, idCell, " ", opener),
                match.verification.external_reference_id ?? "—",
                words(match.verification.status),
                timeOf(match.verification.created_at),
                say(MATCHED_BY[match.matched_by]),
              ];
            }),
          ),
    );
  };
  const run = (value: string | undefined) => {
    context.say.clear();
    heading.textContent = say(value ? LOOKUP_TEXTS.found : LOOKUP_TEXTS.recent);
    context.api
      .lookup(value)
      .then((page) => draw(page.data))
      .catch((error: unknown) => context.say.error(reasonOf(error, say(LOOKUP_TEXTS.failed))));
  };
  const recent = h("button", { type: "button" }, say(LOOKUP_TEXTS.showRecent));
  recent.addEventListener("click", () => {
    q.value = "";
    run(undefined);
  });
  const form = h(
    "form",
    { class: "search", role: "search", "aria-labelledby": "lookup-title" },
    field(say(LOOKUP_TEXTS.query), q, say(LOOKUP_TEXTS.hint)),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary" }, say(LOOKUP_TEXTS.lookUp)), recent),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run(q.value.trim() || undefined);
  });
  run(undefined);
  return h(
    "section",
    { class: "panel", id: "lookup", lang: portalLanguage(), "aria-labelledby": "lookup-title" },
    h("h2", { id: "lookup-title" }, say(LOOKUP_TEXTS.title)),
    form,
    heading,
    results,
  );
}

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
      lookupSection(context, open),
      picker,
      form,
      results,
      more,
      shown,
    ),
  );
}
