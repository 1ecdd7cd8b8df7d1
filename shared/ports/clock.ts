/** The current time, in whole seconds. Use cases ask it; tests hand them a fixed one. */
export interface Clock {
  now(): Date;
}
