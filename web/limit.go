package web

import (
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limits of the token routes, per address and overall (variables so that
// tests can change them). A report token's printed part has 65 bits
// (app.TokenShort): with failures held to failureRate overall, 600 a
// minute, a 3-day event allows 2.6 million guesses, which with ~500 live
// tokens find one with probability about 3.5e-11 (app/token.go).
var (
	requestRate    = rate.Every(time.Second / 2) // requests of an address to the token routes
	requestBurst   = 30
	failureRate    = rate.Every(6 * time.Second) // unknown tokens given by an address: 10 a minute
	failureBurst   = 10
	allFailureRate = rate.Every(100 * time.Millisecond) // unknown tokens given by all the addresses that gave one: 600 a minute
	allFailBurst   = 60
	maxAddresses   = 4096 // addresses remembered at once
)

// limiter slows the token routes down: each address's requests
// (requestRate), each address's failures (unknown tokens, failureRate),
// and the failures of all addresses (allFailureRate). An address that gave
// an unknown token is refused while the overall bound is spent, so that
// guesses spread over many addresses are bounded too, while a player who
// never mistyped a code is not refused for others' guesses. Its clock is
// injected (Server's now): tests do not sleep.
type limiter struct {
	now   func() time.Time
	mu    sync.Mutex
	addrs map[string]*addressLimits
	fails *rate.Limiter // all addresses' failures
}

// addressLimits are an address's limits, and whether it ever failed.
type addressLimits struct {
	requests, fails *rate.Limiter
	failed          bool
}

func newLimiter(now func() time.Time) *limiter {
	return &limiter{now: now, addrs: map[string]*addressLimits{}, fails: rate.NewLimiter(allFailureRate, allFailBurst)}
}

// of returns addr's limits, with l.mu held: a new address's when fewer than
// maxAddresses are remembered once those at rest (their limits full) are
// forgotten; else those of every address beyond them, shared.
func (l *limiter) of(addr string, now time.Time) *addressLimits {
	if a, ok := l.addrs[addr]; ok {
		return a
	}
	if len(l.addrs) >= maxAddresses {
		for k, a := range l.addrs {
			if a.requests.TokensAt(now) >= float64(requestBurst) && a.fails.TokensAt(now) >= float64(failureBurst) {
				delete(l.addrs, k)
			}
		}
		if len(l.addrs) >= maxAddresses {
			addr = "" // the overflow's, shared
			if a, ok := l.addrs[addr]; ok {
				return a
			}
		}
	}
	a := &addressLimits{requests: rate.NewLimiter(requestRate, requestBurst), fails: rate.NewLimiter(failureRate, failureBurst)}
	l.addrs[addr] = a
	return a
}

// allow reports whether addr may make a request now: it spends one of its
// requests.
func (l *limiter) allow(addr string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	a := l.of(addr, now)
	return a.requests.AllowN(now, 1) && a.fails.TokensAt(now) >= 1 && (!a.failed || l.fails.TokensAt(now) >= 1)
}

// fail counts a failure of addr: an unknown token.
func (l *limiter) fail(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	a := l.of(addr, now)
	a.failed = true
	a.fails.AllowN(now, 1)
	l.fails.AllowN(now, 1)
}

// address is the address a request comes from (no proxy stands between
// the phones and serve: a header's claim is not read).
func address(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
