// Throwaway module used by deploy/local/ferretdb.sh to fetch the FerretDB source from the Go module proxy
// (`go install ...@version` fails here: the proxy refuses the version list). Bump the version here.
module localbuild/ferretdb

go 1.22

require github.com/FerretDB/FerretDB v1.24.2
