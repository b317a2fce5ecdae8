// Throwaway module used by deploy/local/promtool.sh to fetch Prometheus from the Go module proxy.
// Bump the version here (v0.3MM.P is Prometheus 3.MM.P).
module localbuild/promtool

go 1.22

require github.com/prometheus/prometheus v0.316.0
