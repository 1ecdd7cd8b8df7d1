/** The decision table in production, asking e-Devlet (here its simulator) by the mobile endpoint. */
import { describeDecisionTable } from "../support/decision-table.ts";

describeDecisionTable({ environment: "production", protocol: "mobile" });
