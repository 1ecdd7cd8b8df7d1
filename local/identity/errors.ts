/** An error as Cognito's JSON protocol sends it: its `__type` and message, with HTTP 400. */
export class CognitoError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export const notAuthorized = (message: string) => new CognitoError("NotAuthorizedException", message);
export const invalidParameter = (message: string) => new CognitoError("InvalidParameterException", message);
