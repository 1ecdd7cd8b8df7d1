/** `ops staff`: add, disable and list the people of the staff user pool (reviewers, admins). */
import { InvalidArgumentError } from "commander";
import { STAFF_AUTHORIZER } from "#shared/declarations/backoffice-api";
import { type AuditAction, auditRecord } from "#shared/domain/audit";
import { isStaffGroup, STAFF_GROUPS, type StaffGroup } from "#shared/domain/staff";
import type { StaffMember } from "#shared/ports/identity";
import { emailAddress } from "../arguments.ts";
import { argument, type Given, type GroupDefinition, option, requiredOption } from "../definitions.ts";
import { fields, table } from "../output.ts";
import type { Target } from "../target.ts";

/** `--group` may be given more than once; each must be a staff group, each counts once. */
function staffGroup(value: string): StaffGroup {
  if (!isStaffGroup(value)) throw new InvalidArgumentError(`expected one of ${STAFF_GROUPS.join(", ")}`);
  return value;
}

function collectGroup(value: string, previous: StaffGroup[] = []): StaffGroup[] {
  const group = staffGroup(value);
  return previous.includes(group) ? previous : [...previous, group];
}

const staffTable = (members: StaffMember[]) =>
  table<StaffMember>(
    [
      ["USERNAME", (member) => member.username],
      ["GROUPS", (member) => member.groups.join(",") || null],
      ["ENABLED", (member) => (member.enabled ? "yes" : "no")],
      ["STATUS", (member) => member.status],
      ["CREATED", (member) => member.created_at],
    ],
    members,
  );

/**
 * Records an operator's change to the staff pool. The pool is not a table: its change cannot
 * share a transaction with the record, so the record follows the change it reports.
 */
async function recordStaffChange(target: Target, action: AuditAction, detail: Record<string, string>): Promise<void> {
  await target.audit.append(auditRecord(await target.operator(), target.clock.now(), { action, detail }));
}

const theUser = () => argument("<username>", "the staff user");

export const STAFF: GroupDefinition = {
  name: "staff",
  description: "staff of the backoffice: reviewers and admins",
  commands: [
    {
      name: "add",
      description: "create a staff user in one or more groups; prints the temporary password once",
      arguments: [argument("<username>", "how they sign in")],
      options: [
        requiredOption(
          "--group <group>",
          `a group (${STAFF_GROUPS.join(" or ")}); repeat for more than one`,
          collectGroup,
        ),
        option("--email <address>", "where the pool sends a forgotten-password code", emailAddress),
      ],
      reaches: "target",
      run: async (target, { args: [username], options }: Given<[string], { group: StaffGroup[]; email?: string }>) => {
        const directory = await target.staff();
        const { member, temporaryPassword } = await directory.add({
          username,
          groups: options.group,
          ...(options.email ? { email: options.email } : {}),
        });
        await recordStaffChange(target, "staff.added", { username, groups: options.group.join(",") });
        return {
          json: { ...member, temporary_password: temporaryPassword },
          text: [
            `Added ${member.username} to ${member.groups.join(", ")} in ${target.label}`,
            fields([
              ["username", member.username],
              ["groups", member.groups.join(", ")],
              ["status", member.status],
              ["email", options.email],
            ]),
            "",
            "Shown once: hand it over now, it cannot be read back.",
            fields([["temporary password", temporaryPassword]]),
            // The deployed pool requires TOTP; the local one asks only users who set it up.
            "The first sign-in sets a new password; in a deployed stack it then sets up TOTP (an authenticator app), and every sign-in after asks for its code.",
          ].join("\n"),
        };
      },
    },
    {
      name: "disable",
      description: "disable a staff user and sign them out everywhere",
      arguments: [theUser()],
      reaches: "target",
      run: async (target, { args: [username] }: Given<[string]>) => {
        const directory = await target.staff();
        await directory.disable(username);
        await recordStaffChange(target, "staff.disabled", { username });
        return {
          json: { username, enabled: false },
          text: [
            `${username} is disabled and signed out everywhere: they cannot sign in, and their sessions cannot refresh.`,
            `Decisions already cached by the staff authorizer stand for up to ${STAFF_AUTHORIZER.cacheTtlSeconds} s.`,
          ].join(" "),
        };
      },
    },
    {
      name: "enable",
      description: "let a disabled staff user sign in again",
      arguments: [theUser()],
      reaches: "target",
      run: async (target, { args: [username] }: Given<[string]>) => {
        await (await target.staff()).enable(username);
        await recordStaffChange(target, "staff.enabled", { username });
        return { json: { username, enabled: true }, text: `${username} can sign in again.` };
      },
    },
    {
      name: "remove-group",
      description: "take a staff user out of a group",
      arguments: [theUser()],
      options: [requiredOption("--group <group>", `the group (${STAFF_GROUPS.join(" or ")})`, staffGroup)],
      reaches: "target",
      run: async (target, { args: [username], options }: Given<[string], { group: StaffGroup }>) => {
        await (await target.staff()).removeFromGroup(username, options.group);
        await recordStaffChange(target, "staff.group_removed", { username, group: options.group });
        return {
          json: { username, removed_from: options.group },
          text: [
            `${username} is no longer in ${options.group}.`,
            `Tokens issued already keep the group until they expire (an hour at most); decisions cached by the staff authorizer stand for up to ${STAFF_AUTHORIZER.cacheTtlSeconds} s.`,
          ].join(" "),
        };
      },
    },
    {
      name: "list",
      description: "every staff user: groups, enabled, status",
      reaches: "target",
      run: async (target) => {
        const members = await (await target.staff()).list();
        return {
          json: { staff: members },
          text: members.length === 0 ? `No staff in ${target.label}` : staffTable(members),
        };
      },
    },
  ],
};
