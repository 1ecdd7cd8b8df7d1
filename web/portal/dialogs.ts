/** The two dialogs: a secret shown once with a copy button, and a question before a change that cannot be undone. */
import { byId, h } from "../common/dom.ts";
import { t } from "./text.ts";

/** Shows `secrets` once; resolves when the user says they copied them. Nothing is kept after. */
export function showSecrets(title: string, secrets: { label: string; value: string }[], note: string): Promise<void> {
  const dialog = byId<HTMLDialogElement>("secrets");
  byId("secrets-title").textContent = title;
  byId("secrets-note").textContent = note;
  byId("secrets-values").replaceChildren(
    ...secrets.map((secret, index) => {
      const id = `secret-${index}`;
      const value = h("input", { id, class: "secret-value", readonly: true, value: secret.value, spellcheck: "false" });
      const copied = h("span", { class: "copied", role: "status" });
      const copy = h(
        "button",
        { type: "button", "aria-label": t("dialog.copy_label", { label: secret.label }) },
        t("dialog.copy"),
      );
      copy.addEventListener("click", () => {
        const fallback = () => {
          value.select();
          copied.textContent = t("dialog.select_to_copy");
        };
        if (!navigator.clipboard) {
          fallback();
          return;
        }
        navigator.clipboard.writeText(secret.value).then(() => {
          copied.textContent = t("dialog.copied");
        }, fallback);
      });
      return h(
        "div",
        { class: "field secret" },
        h("label", { for: id }, secret.label),
        h("div", { class: "copy-row" }, value, copy),
        copied,
      );
    }),
  );
  dialog.showModal();
  byId<HTMLButtonElement>("secrets-close").focus();
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        byId("secrets-values").replaceChildren();
        resolve();
      },
      { once: true },
    );
  });
}

export function confirmChange(question: string, action: string): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>("confirm");
  byId("confirm-question").textContent = question;
  byId("confirm-ok").textContent = action;
  dialog.returnValue = "";
  dialog.showModal();
  byId<HTMLButtonElement>("confirm-cancel").focus();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
  });
}

/** Wires the dialogs' own buttons, once. */
export function wireDialogs(): void {
  byId("secrets-close").addEventListener("click", () => byId<HTMLDialogElement>("secrets").close());
  byId("confirm-cancel").addEventListener("click", () => byId<HTMLDialogElement>("confirm").close(""));
  byId("confirm-ok").addEventListener("click", () => byId<HTMLDialogElement>("confirm").close("ok"));
}
