// Pins the kustomize that deploy/local/kustomize.sh builds (`go install <module>@<version>`); nothing imports it.
// Bump the version here (v5.8.3 and later need Go 1.27; the machines have 1.26).
module localbuild/kustomize

go 1.22

require sigs.k8s.io/kustomize/kustomize/v5 v5.8.2
