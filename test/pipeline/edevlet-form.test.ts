/** The decision table in production, asking e-Devlet (here its simulator) by the web form: production's default. */
import { describeDecisionTable } from "../support/decision-table.ts";

describeDecisionTable({ environment: "production", protocol: "form" });
