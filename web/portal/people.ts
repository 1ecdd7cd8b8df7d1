/**
 * The organisation's people (owners only): who has which role, changing a role or removing
 * someone, and inviting someone (the pool mails them their temporary password).
 */
import { h, timeOf } from "../common/dom.ts";
import { action, field, onSubmit, type PortalContext, reasonOf, table } from "./context.ts";
import { confirmChange } from "./dialogs.ts";
import type { Member, Role } from "./wire.ts";

const ROLES: { role: Role; label: string; says: string }[] = [
  { role: "viewer", label: "Viewer", says: "Viewer: reads apps, deliveries, verifications and usage" },
  { role: "developer", label: "Developer", says: "Developer: also creates apps, rotates keys and changes webhooks" },
  { role: "owner", label: "Owner", says: "Owner: also manages people" },
];

/** A role by its label, never its code. */
const labelOf = (role: Role) => ROLES.find((entry) => entry.role === role)?.label ?? role;

/** The role picker of one person's row, and the buttons that change their membership. */
function personControls(context: PortalContext, person: Member, reload: () => void): HTMLElement {
  const id = `role-${person.username}`;
  const role = h(
    "select",
    { id, name: "role", "aria-label": `Role of ${person.username}` },
    ...ROLES.map((entry) => h("option", { value: entry.role, selected: entry.role === person.role }, entry.label)),
  );
  const change = action(context, "Change role", async () => {
    const changed = await context.api.changeRole(person.username, role.value as Role);
    context.say.info(`${changed.username} is now ${labelOf(changed.role)}.`);
    reload();
  });
  const remove = action(context, "Remove", async () => {
    const sure = await confirmChange(
      `Remove ${person.username}? They are signed out everywhere and can no longer sign in; their username is freed.`,
      "Remove",
    );
    if (!sure) return;
    await context.api.removeMember(person.username);
    context.say.info(`${person.username} is no longer a member.`);
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
            "People of your organisation",
            ["Username", "Role", "Since", "Change"],
            page.data.map((person) => [
              person.username,
              labelOf(person.role),
              timeOf(person.created_at),
              person.username === context.me.username
                ? h("span", { class: "muted" }, "You")
                : personControls(context, person, load),
            ]),
          ),
        );
      })
      .catch((error: unknown) => context.say.error(reasonOf(error, "The people could not be loaded.")));
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
    ...ROLES.map((entry) => h("option", { value: entry.role }, entry.says)),
  );
  const submit = h("button", { type: "submit", class: "primary" }, "Invite");
  const form = h(
    "form",
    { class: "panel", "aria-labelledby": "invite-title" },
    h("h2", { id: "invite-title" }, "Invite someone"),
    field("Username", username, "How they sign in: 3 to 64 letters, digits or ._@+-"),
    field("Email", email, "Their invitation with a temporary password goes here, and only here"),
    field("Role", role),
    h("div", { class: "actions" }, submit),
  );
  onSubmit(context, form, "The invitation failed.", async () => {
    const invited = await context.api.invite(username.value.trim(), role.value as Role, email.value.trim());
    context.say.info(
      `${invited.username} is invited as ${labelOf(invited.role)}: their temporary password is on its way to ${email.value.trim()}.`,
    );
    load();
  });
  context.view.replaceChildren(
    h(
      "section",
      { "aria-labelledby": "people-title" },
      h("h1", { id: "people-title", tabindex: "-1" }, "People"),
      form,
      list,
    ),
  );
  load();
}
