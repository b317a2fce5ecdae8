// Throwaway module used by deploy/local/crds.sh to fetch KEDA's CustomResourceDefinitions (config/crd/bases in the
// module) from the Go module proxy. Bump the version here.
module localbuild/crds

go 1.22

require github.com/kedacore/keda/v2 v2.21.0
