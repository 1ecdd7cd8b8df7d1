/**
 * Each app's own request bucket at the API's edge, so one app cannot use up another's share:
 * a usage-plan key in API Gateway, named by the app's usage identifier.
 */
export interface AppLimits {
  /** Gives the app its bucket; doing it again for the same app changes nothing. */
  register(appId: string): Promise<void>;
  /** The ids of the apps that have a bucket. */
  registered(): Promise<Set<string>>;
}
