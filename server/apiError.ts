/**
 * A failure the client caused, with the stable code it gets back: thrown by routes and by the services they call
 * (a step's save refuses in the API's terms), answered by the errors plugin as `{ code, message, ...details }`.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}
