import { defaultResource, detectResources, envDetector, resourceFromAttributes, type Resource } from '@opentelemetry/resources';

/** The service every span and metric is from; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES add to it or rename it. */
export function serviceResource(): Resource {
  return defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'divilo-onboarding' }))
    .merge(detectResources({ detectors: [envDetector] }));
}
