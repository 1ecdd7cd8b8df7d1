/**
 * One app's webhooks: the destination, its secret, a test event, every delivery with its answer,
 * replay, and the app's events (events.ts).
 */
import { h, timeOf } from "../common/dom.ts";
import { action, appPicker, canChange, field, type PortalContext, reasonOf, table } from "./context.ts";
import { eventsSection } from "./events.ts";
import type { App, Delivery, DeliveryFilter } from "./wire.ts";

function answerOf(delivery: Delivery): HTMLElement {
  const status = delivery.response_status === null ? "no answer" : String(delivery.response_status);
  const summary = h("summary", {}, `${status} · ${delivery.latency_ms} ms`);
  const body = delivery.response_body ? h("pre", {}, delivery.response_body) : h("p", {}, "(empty body)");
  return delivery.response_body || delivery.error
    ? h("details", {}, summary, delivery.error ? h("p", {}, delivery.error) : null, body)
    : h("span", {}, `${status} · ${delivery.latency_ms} ms`);
}

function deliveriesSection(context: PortalContext, app: App): { element: HTMLElement; reload: () => void } {
  const filter = h(
    "select",
    { id: "delivery-filter", name: "status" },
    h("option", { value: "" }, "All"),
    h("option", { value: "delivered" }, "Delivered"),
    h("option", { value: "failed" }, "Failed"),
  );
  const body = h("div", { "aria-live": "polite" });
  const more = h("button", { type: "button", hidden: true }, "Load more");
  let cursor: string | null = null;
  let rows: Delivery[] = [];

  const draw = () => {
    body.replaceChildren(
      rows.length === 0
        ? h("p", { class: "empty" }, "No deliveries yet. Send a test event to see one.")
        : table(
            `Deliveries of ${app.name}`,
            ["Time", "Event", "Attempt", "Outcome", "Answer", ...(canChange(context.me) ? [""] : [])],
            rows.map((delivery) => [
              timeOf(delivery.attempted_at),
              h("span", {}, h("code", {}, delivery.event_id), h("br", {}), delivery.event_type ?? ""),
              String(delivery.attempt),
              h("span", { class: `badge ${delivery.outcome}` }, delivery.outcome),
              answerOf(delivery),
              ...(canChange(context.me)
                ? [
                    action(
                      context,
                      "Replay",
                      async () => {
                        const queued = await context.api.replay(delivery.event_id);
                        context.say.info(`Event ${queued.event_id} is queued again; it is delivered within a minute.`);
                      },
                      { "aria-label": `Replay event ${delivery.event_id}` },
                    ),
                  ]
                : []),
            ]),
          ),
    );
    more.hidden = cursor === null;
  };
  const load = async (next: boolean) => {
    const page = await context.api.deliveries(
      app.app_id,
      (filter.value || undefined) as DeliveryFilter,
      next ? cursor : null,
    );
    rows = next ? [...rows, ...page.data] : page.data;
    cursor = page.next_cursor;
    draw();
  };
  const reload = () => {
    load(false).catch((error: unknown) => context.say.error(reasonOf(error, "The deliveries could not be loaded.")));
  };
  filter.addEventListener("change", reload);
  more.addEventListener("click", () => {
    load(true).catch((error: unknown) => context.say.error(reasonOf(error, "More deliveries could not be loaded.")));
  });
  const element = h(
    "section",
    { class: "panel", "aria-labelledby": "deliveries-title" },
    h("h2", { id: "deliveries-title" }, "Deliveries"),
    h(
      "div",
      { class: "inline-form" },
      field("Show", filter),
      h("button", { type: "button", id: "deliveries-refresh" }, "Refresh"),
    ),
    body,
    more,
  );
  element.querySelector("#deliveries-refresh")?.addEventListener("click", reload);
  return { element, reload };
}

function settingsSection(context: PortalContext, app: App, afterTest: () => void): HTMLElement {
  const url = h("input", {
    id: "webhook-url",
    name: "url",
    type: "url",
    inputmode: "url",
    required: true,
    value: app.webhook_url ?? "",
    placeholder: "https://…",
    readonly: !canChange(context.me),
  });
  const children: HTMLElement[] = [
    field("Destination URL", url, "Events are POSTed here, signed by Standard Webhooks."),
  ];
  if (canChange(context.me)) {
    const save = h("button", { type: "submit", class: "primary" }, "Save destination");
    const test = action(context, "Send test event", async () => {
      const { event_id, delivery } = await context.api.testWebhook(app.app_id);
      const answer =
        delivery.response_status === null ? (delivery.error ?? "no answer") : `HTTP ${delivery.response_status}`;
      const say = delivery.outcome === "delivered" ? context.say.info : context.say.error;
      say(`Test event ${event_id}: ${delivery.outcome}, ${answer} in ${delivery.latency_ms} ms.`);
      afterTest();
    });
    const rotate = action(context, "Rotate signing secret", async () => {
      const sure = await context.confirm(
        "Make a new signing secret? For 24 hours events carry a signature with each, so switch your receiver over within a day.",
        "Rotate secret",
      );
      if (!sure) return;
      const rotated = await context.api.rotateSecret(app.app_id);
      await context.showSecrets(
        "Your new signing secret",
        [{ label: "Webhook signing secret", value: rotated.webhook_secret }],
        "This is the only time the secret is shown: copy it to your receiver now.",
      );
    });
    children.push(h("div", { class: "actions" }, save, test, rotate));
  }
  const form = h(
    "form",
    { class: "panel", "aria-labelledby": "webhook-title" },
    h("h2", { id: "webhook-title" }, "Destination"),
    ...children,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    context.say.clear();
    context.api
      .setWebhook(app.app_id, url.value.trim())
      .then((saved) => {
        app.webhook_url = saved.webhook_url;
        context.say.info(`Events of ${app.name} now go to ${saved.webhook_url}.`);
      })
      .catch((error: unknown) => context.say.error(reasonOf(error, "The destination could not be saved.")));
  });
  return form;
}

export async function showWebhooks(context: PortalContext): Promise<void> {
  const content = h("div", { class: "stack" });
  const picker = await appPicker(context, (app) => {
    const deliveries = deliveriesSection(context, app);
    const events = eventsSection(context, app);
    const afterTest = () => {
      deliveries.reload();
      events.reload();
    };
    content.replaceChildren(settingsSection(context, app, afterTest), deliveries.element, events.element);
    deliveries.reload();
    events.reload();
  });
  context.view.replaceChildren(
    h(
      "section",
      { "aria-labelledby": "webhooks-title" },
      h("h1", { id: "webhooks-title", tabindex: "-1" }, "Webhooks"),
      picker,
      content,
    ),
  );
}
