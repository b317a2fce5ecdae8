// Throwaway module used by deploy/local/gcs.sh to fetch fake-gcs-server from the Go module proxy.
// Bump the version here.
module localbuild/gcs

go 1.22

require github.com/fsouza/fake-gcs-server v1.56.1
