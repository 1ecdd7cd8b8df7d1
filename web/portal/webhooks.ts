/**
 * One app's webhooks: the destination, its secret, a test event, every delivery with its answer,
 * replay, and the app's events (events.ts).
 */
import { h, timeOf } from "../common/dom.ts";
import { action, appPicker, canChange, field, type PortalContext, table } from "./context.ts";
import { eventsSection, failureText } from "./events.ts";
import { DELIVERY_OUTCOMES } from "./order.ts";
import { problemText, t, text } from "./text.ts";
import type { App, Delivery, DeliveryFilter } from "./wire.ts";

function answerOf(delivery: Delivery): HTMLElement {
  const status = delivery.response_status === null ? t("common.no_answer") : String(delivery.response_status);
  const answer = `${status} · ${delivery.latency_ms} ms`;
  const body = delivery.response_body ? h("pre", {}, delivery.response_body) : h("p", {}, t("common.empty_body"));
  const failure = failureText(delivery);
  return delivery.response_body || failure
    ? h("details", {}, h("summary", {}, answer), failure ? h("p", {}, failure) : null, body)
    : h("span", {}, answer);
}

function replayButton(context: PortalContext, delivery: Delivery): HTMLButtonElement {
  return action(
    context,
    t("deliveries.replay"),
    async () => {
      const queued = await context.api.replay(delivery.event_id);
      context.say.info(t("deliveries.replayed", { id: queued.event_id }));
    },
    { "aria-label": t("deliveries.replay_named", { id: delivery.event_id }) },
  );
}

function deliveriesSection(context: PortalContext, app: App): { element: HTMLElement; reload: () => void } {
  const filter = h(
    "select",
    { id: "delivery-filter", name: "status" },
    h("option", { value: "" }, t("deliveries.all")),
    ...DELIVERY_OUTCOMES.map((outcome) => h("option", { value: outcome }, text.label("delivery_outcome", outcome))),
  );
  const body = h("div", { "aria-live": "polite" });
  const more = h("button", { type: "button", hidden: true }, t("common.load_more"));
  let cursor: string | null = null;
  let rows: Delivery[] = [];

  const draw = () => {
    body.replaceChildren(
      rows.length === 0
        ? h("p", { class: "empty" }, t("deliveries.none"))
        : table(
            t("deliveries.caption", { app: app.name }),
            [
              t("deliveries.time"),
              t("deliveries.event"),
              t("deliveries.attempt"),
              t("deliveries.outcome"),
              t("deliveries.answer"),
              ...(canChange(context.me) ? [""] : []),
            ],
            rows.map((delivery) => [
              timeOf(delivery.attempted_at),
              h(
                "span",
                {},
                h("code", {}, delivery.event_id),
                h("br", {}),
                delivery.event_type ? text.label("event_type", delivery.event_type) : "",
              ),
              String(delivery.attempt),
              h("span", { class: `badge ${delivery.outcome}` }, text.label("delivery_outcome", delivery.outcome)),
              answerOf(delivery),
              ...(canChange(context.me) ? [replayButton(context, delivery)] : []),
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
    load(false).catch((error: unknown) => context.say.error(problemText(error, "deliveries.load_failed")));
  };
  filter.addEventListener("change", reload);
  more.addEventListener("click", () => {
    load(true).catch((error: unknown) => context.say.error(problemText(error, "deliveries.more_failed")));
  });
  const refresh = h("button", { type: "button", id: "deliveries-refresh" }, t("deliveries.refresh"));
  refresh.addEventListener("click", reload);
  const element = h(
    "section",
    { class: "panel", "aria-labelledby": "deliveries-title" },
    h("h2", { id: "deliveries-title" }, t("deliveries.title")),
    h("div", { class: "inline-form" }, field(t("deliveries.show"), filter), refresh),
    body,
    more,
  );
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
  const children: HTMLElement[] = [field(t("destination.url"), url, t("destination.hint"))];
  if (canChange(context.me)) {
    const save = h("button", { type: "submit", class: "primary" }, t("destination.save"));
    const test = action(context, t("test.send"), async () => {
      const { event_id, delivery } = await context.api.testWebhook(app.app_id);
      const answer =
        delivery.response_status === null
          ? (failureText(delivery) ?? t("common.no_answer"))
          : `HTTP ${delivery.response_status}`;
      const values = { id: event_id, answer, ms: delivery.latency_ms };
      if (delivery.outcome === "delivered") context.say.info(t("test.delivered", values));
      else context.say.error(t("test.failed", values));
      afterTest();
    });
    const rotate = action(context, t("secret.rotate"), async () => {
      const sure = await context.confirm(t("secret.rotate_question"), t("secret.rotate_confirm"));
      if (!sure) return;
      const rotated = await context.api.rotateSecret(app.app_id);
      await context.showSecrets(
        t("secret.rotated_title"),
        [{ label: t("secret.webhook"), value: rotated.webhook_secret }],
        t("secret.rotated_note"),
      );
    });
    const { test: tests, manual } = context.me.limits.sending;
    children.push(
      h("div", { class: "actions" }, save, test, rotate),
      h(
        "p",
        { class: "hint", id: "sending-limits" },
        t("sending.limits", {
          test_most: tests.most,
          test_seconds: tests.per_seconds,
          manual_most: manual.most,
          manual_hours: manual.per_seconds / 3600,
        }),
      ),
    );
  }
  const form = h(
    "form",
    { class: "panel", "aria-labelledby": "webhook-title" },
    h("h2", { id: "webhook-title" }, t("destination.title")),
    ...children,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    context.say.clear();
    context.api
      .setWebhook(app.app_id, url.value.trim())
      .then((saved) => {
        app.webhook_url = saved.webhook_url;
        context.say.info(t("destination.saved", { app: app.name, url: saved.webhook_url ?? "" }));
      })
      .catch((error: unknown) => context.say.error(problemText(error, "destination.save_failed")));
  });
  return form;
}

export async function showWebhooks(context: PortalContext): Promise<void> {
  const content = h("div", { class: "stack" });
  const picker = await appPicker(context, (app) => {
    const deliveries = deliveriesSection(context, app);
    const events = eventsSection(context, app, () => deliveries.reload());
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
      h("h1", { id: "webhooks-title", tabindex: "-1" }, t("webhooks.title")),
      picker,
      content,
    ),
  );
}
