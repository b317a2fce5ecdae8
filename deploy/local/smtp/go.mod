// Throwaway module used by deploy/local/smtp.sh to fetch the Mailpit source from the Go module proxy.
// v1.22.3 is the newest release the proxy serves here (v1.22.1, v1.23.x and later answer 403).
module localbuild/mailpit

go 1.22

require github.com/axllent/mailpit v1.22.3
