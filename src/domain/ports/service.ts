// The service's error and its trace ids are plumbing below both the client and the domain
// (src/platform); this port is the domain's face for them.
export { isServiceError, SERVICE_ERROR_CODE, ServiceError } from '../../platform/service-error.ts';
export { rememberTraceId, traceIdOf } from '../../platform/trace-ids.ts';
