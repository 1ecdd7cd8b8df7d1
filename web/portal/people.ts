/**
 * The organisation's people (owners only): who has which role, changing a role or removing
 * someone, and inviting someone (the pool mails them their temporary password).
 */
import { h, timeOf } from "../common/dom.ts";
import { action, field, onSubmit, type PortalContext, table } from "./context.ts";
import { confirmChange } from "./dialogs.ts";
import { ROLES } from "./order.ts";
import { problemText, t, text } from "./text.ts";
import type { Member, Role } from "./wire.ts";

/** A role by its label, never its code. */
const labelOf = (role: Role) => text.label("role", role);

/** The role picker of one person's row, and the buttons that change their membership. */
function personControls(context: PortalContext, person: Member, reload: () => void): HTMLElement {
  const id = `role-${person.username}`;
  const role = h(
    "select",
    { id, name: "role", "aria-label": t("people.role_of", { name: person.username }) },
    ...ROLES.map((value) => h("option", { value, selected: value === person.role }, labelOf(value))),
  );
  const change = action(context, t("people.change_role"), async () => {
    const changed = await context.api.changeRole(person.username, role.value as Role);
    context.say.info(t("people.changed", { name: changed.username, role: labelOf(changed.role) }));
    reload();
  });
  const remove = action(context, t("people.remove"), async () => {
    const sure = await confirmChange(t("people.remove_question", { name: person.username }), t("people.remove"));
    if (!sure) return;
    await context.api.removeMember(person.username);
    context.say.info(t("people.removed", { name: person.username }));
    reload();
  });
  return h("div", { class: "row-actions" }, role, change, remove);
}

export function showPeople(context: PortalContext): void {
  const list = h("div", { "aria-live": "polite" });
  const load = () => {
    context.api
      .people()
      .then((page) => {
        list.replaceChildren(
          table(
            t("people.caption"),
            [t("people.username"), t("people.role"), t("people.since"), t("people.change")],
            page.data.map((person) => [
              person.username,
              labelOf(person.role),
              timeOf(person.created_at),
              person.username === context.me.username
                ? h("span", { class: "muted" }, t("people.you"))
                : personControls(context, person, load),
            ]),
          ),
        );
      })
      .catch((error: unknown) => context.say.error(problemText(error, "people.load_failed")));
  };
  const username = h("input", {
    id: "invite-username",
    name: "username",
    required: true,
    autocomplete: "off",
    pattern: "[A-Za-z0-9._@+\\-]{3,64}",
  });
  const email = h("input", { id: "invite-email", name: "email", type: "email", required: true, autocomplete: "off" });
  const role = h(
    "select",
    { id: "invite-role", name: "role" },
    ...ROLES.map((value) => h("option", { value }, text.label("role_hint", value))),
  );
  const submit = h("button", { type: "submit", class: "primary" }, t("invite.submit"));
  const form = h(
    "form",
    { class: "panel", "aria-labelledby": "invite-title" },
    h("h2", { id: "invite-title" }, t("invite.title")),
    field(t("invite.username"), username, t("invite.username_hint")),
    field(t("invite.email"), email, t("invite.email_hint")),
    field(t("invite.role"), role),
    h("div", { class: "actions" }, submit),
  );
  onSubmit(context, form, "invite.failed", async () => {
    const invited = await context.api.invite(username.value.trim(), role.value as Role, email.value.trim());
    context.say.info(
      t("invite.sent", { name: invited.username, role: labelOf(invited.role), email: email.value.trim() }),
    );
    load();
  });
  context.view.replaceChildren(
    h(
      "section",
      { "aria-labelledby": "people-title" },
      h("h1", { id: "people-title", tabindex: "-1" }, t("people.title")),
      form,
      list,
    ),
  );
  load();
}
