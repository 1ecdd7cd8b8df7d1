/** The decision table in the sandbox, asking the stack's e-Devlet simulator by the web form, as `npm start` does. */
import { describeDecisionTable } from "../support/decision-table.ts";

describeDecisionTable({ environment: "sandbox", protocol: "form" });
