/** The organisation's people (owners only): who has which role, and inviting someone with a temporary password. */
import { h, timeOf } from "../common/dom.ts";
import { field, onSubmit, type PortalContext, reasonOf, table } from "./context.ts";
import type { Role } from "./wire.ts";

const ROLES: { role: Role; says: string }[] = [
  { role: "viewer", says: "Viewer: reads apps, deliveries, verifications and usage" },
  { role: "developer", says: "Developer: also creates apps, rotates keys and changes webhooks" },
  { role: "owner", says: "Owner: also manages people" },
];

export function showPeople(context: PortalContext): void {
  const list = h("div", { "aria-live": "polite" });
  const load = () => {
    context.api
      .people()
      .then((page) => {
        list.replaceChildren(
          table(
            "People of your organisation",
            ["Username", "Role", "Since"],
            page.data.map((person) => [person.username, person.role, timeOf(person.created_at)]),
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
  const email = h("input", { id: "invite-email", name: "email", type: "email", autocomplete: "off" });
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
    field("Email (optional)", email, "Where a forgotten-password code goes"),
    field("Role", role),
    h("div", { class: "actions" }, submit),
  );
  onSubmit(context, form, "The invitation failed.", async () => {
    const invited = await context.api.invite(
      username.value.trim(),
      role.value as Role,
      email.value.trim() || undefined,
    );
    await context.showSecrets(
      `${invited.username} is invited`,
      [{ label: "Temporary password", value: invited.temporary_password }],
      "Hand it over now: it is shown only this once, and their first sign-in sets their own password.",
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
