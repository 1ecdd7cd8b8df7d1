/** CDK entry (`cdk.json`): one environment per run, chosen with `-c env=sandbox|production`. */
import { App } from "aws-cdk-lib";
import { defineApp } from "./define-app.ts";

defineApp(new App());
