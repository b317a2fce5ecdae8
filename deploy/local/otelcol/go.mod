// Throwaway module used by deploy/local/otelcol.sh to fetch the OpenTelemetry Collector builder (ocb) from the
// Go module proxy. Bump it together with the component versions in builder-config.yaml.
module localbuild/otelcol

go 1.22

require go.opentelemetry.io/collector/cmd/builder v0.165.0
